// Loads the full public release files into the catalogue:
//   npm run catalogue:import -w apps/server -- --ndc product.txt --icd10 icd10cm-order-2026.txt
// (DATABASE_URL, or the embedded database in DATA_DIR like npm start, with the server stopped: the data
// directory's lock refuses a second owner). One transaction; rerunnable (rows are upserted by name and code).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../config';
import { createDatabase } from '../../platform/db/client';
import { startEmbeddedPostgres } from '../../platform/db/embedded';
import { readIcd10Order, readNdcProducts } from './catalogue.data';
import { upsertDiagnosisCodes, upsertDrugs } from './catalogue.queries';

const { values } = parseArgs({ options: { ndc: { type: 'string' }, icd10: { type: 'string' } } });
if (!values.ndc && !values.icd10) {
  console.error('usage: catalogue:import -- [--ndc product.txt] [--icd10 icd10cm-order-YYYY.txt]');
  process.exit(2);
}
const config = loadConfig();
const embedded = config.DATABASE_URL
  ? null
  : await startEmbeddedPostgres({
      dir: path.join(config.DATA_DIR, 'pg'),
      persistent: true,
      lockFile: path.join(config.DATA_DIR, 'caredeck.lock'),
    });
const embeddedUrl = embedded
  ? Object.assign(new URL(embedded.url), { pathname: '/caredeck' }).toString()
  : null;
const db = createDatabase(config.DATABASE_URL ?? embeddedUrl!, 2);
try {
  const drugs = values.ndc ? await readNdcProducts(values.ndc) : [];
  const codes = values.icd10 ? await readIcd10Order(values.icd10) : [];
  await db.transaction(async (tx) => {
    for (let i = 0; i < drugs.length; i += 1000) await upsertDrugs(tx, drugs.slice(i, i + 1000));
    for (let i = 0; i < codes.length; i += 2000) await upsertDiagnosisCodes(tx, codes.slice(i, i + 2000));
  });
  console.log(`catalogue: ${drugs.length} drugs, ${codes.length} diagnosis codes loaded`);
} finally {
  await db.$client.end();
  await embedded?.stop();
}
