/** The static file server now lives with the CLI that ships it (`docdb view`); scripts and tests import it from here. */
export { type StaticServer, startStaticServer } from '../src/cli/static-server.js';
