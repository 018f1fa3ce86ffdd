/** Loads the geography reference data from npm packages (src/areas/geography/reference-data/load.ts). */
export { up } from '../src/areas/geography/reference-data/load.ts';
