/**
 * How a message names one of a run's settings (`spec`, `token`, `repository`, `projections`, …). The
 * settings are the Action's inputs (action.yml); the CLI takes the same settings as flags. Messages are
 * built below the entry points (spec loading, sources, the run), so each entry point passes its own
 * vocabulary down and a message names what the user can set where they are: `set the "spec" input` in a
 * workflow, `set --spec` in a terminal. The lower layers only call these two functions; which words they
 * return is the entry point's business.
 */
export interface InputNames {
  /** The setting inside a sentence: `the "spec" input` (Action), `--spec` (CLI). */
  phrase(input: string): string;
  /** The setting as a message's prefix (`<label>: what is wrong`): `input "spec"` (Action), `--spec` (CLI). */
  label(input: string): string;
}

/**
 * The Action's vocabulary, the default of every layer that builds messages (the names in action.yml).
 *
 * @example
 * ACTION_INPUT_NAMES.phrase('spec'); // 'the "spec" input'
 * ACTION_INPUT_NAMES.label('mode'); // 'input "mode"'
 */
export const ACTION_INPUT_NAMES: InputNames = {
  phrase: (input) => `the "${input}" input`,
  label: (input) => `input "${input}"`,
};
