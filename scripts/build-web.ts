// Writes the web console's and the API docs' files (buildWeb) as the S3 keys CloudFront
// serves them from, and the list of their URL paths: `tsx scripts/build-web.ts DIR` gives
// DIR/files/<key> and DIR/paths.json. The CDK app runs it at synth (lib/web-files.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { objectKey } from '../lib/web-files';
import { buildWeb } from '../web/build';

const [directory] = process.argv.slice(2);
if (!directory) throw new Error('Usage: tsx scripts/build-web.ts DIR');
const files = await buildWeb({ minify: true, root: fileURLToPath(new URL('..', import.meta.url)) });
for (const [path, { body }] of files) {
  const file = join(directory, 'files', objectKey(path));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, body);
}
writeFileSync(join(directory, 'paths.json'), JSON.stringify([...files.keys()]));
