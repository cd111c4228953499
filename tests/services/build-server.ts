/** The services suite's process tests run `node dist/server/main.js`: the server is compiled once, before any file starts one. */
import { buildServer } from '../helpers/server-process.js';

export default function setup() {
  buildServer();
}
