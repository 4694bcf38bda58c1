/** The one thing the record builders under state/ need from the EmulatorState that owns them. */
import type { Account, AccountType } from '../model.js';

/** Fresh ids (one sequence for every record, like GitHub's database ids) and accounts by login. */
export interface Registry {
  newId(): number;
  /** The account with this login, created if unknown. */
  account(login: string, type?: AccountType): Account;
}
