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
  /**
   * A worked example of how to set something where the user is, for a message's "e.g.": `shard` (the
   * value of one job of a fan-out), `secret-env` (putting a secret into the environment variable `name`).
   * The Action's examples are workflow YAML; the CLI's are a command line.
   */
  example(kind: InputExample, name?: string): string;
}

/** What {@link InputNames.example} gives an example of. */
export type InputExample = 'shard' | 'secret-env';

/**
 * The Action's vocabulary, the default of every layer that builds messages (the names in action.yml).
 *
 * @example
 * ACTION_INPUT_NAMES.phrase('spec'); // 'the "spec" input'
 * ACTION_INPUT_NAMES.label('mode'); // 'input "mode"'
 * ACTION_INPUT_NAMES.example('shard'); // 'e.g. "${{ matrix.shard }}/4" with shard: [1, 2, 3, 4]'
 */
export const ACTION_INPUT_NAMES: InputNames = {
  phrase: (input) => `the "${input}" input`,
  label: (input) => `input "${input}"`,
  example: (kind, name = 'NAME') =>
    kind === 'shard'
      ? // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression, written as the user writes it
        'e.g. "${{ matrix.shard }}/4" with shard: [1, 2, 3, 4]'
      : `pass the secret to the step, e.g. env: { ${name}: \${{ secrets.${name} }} }`,
};
