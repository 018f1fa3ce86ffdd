/** Catalogue imports: JSON and CSV files, upserts, refused rows, the report, the demo catalogue, the CLI path. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, type TestApp } from '../../../../test/helpers/app.ts';
import { cliTestContext } from '../../../../test/helpers/cli.ts';
import { type CliContext, CliError } from '../../../cli/command.ts';
import { runOnServer } from '../../../cli/command-client.ts';
import { startCommandServer } from '../../../cli/command-server.ts';
import { commands } from '../../../cli/registry.ts';
import { importCommands } from './import.command.ts';
import { progressBar, progressLine } from './progress.ts';

const command = (name: string) => importCommands.find((candidate) => candidate.name === name)!;
const lyonId = '5cdc08b4-a9b0-5f4c-8a68-888d3165d2cf';

describe('catalogue imports', () => {
  let t: TestApp;
  let context: CliContext;
  let output: string[];
  let dir: string;
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return name;
  };
  /** Runs an import command in dir; the JSON report, and the CliError it ended with (rows refused), if any. */
  const run = async (name: string, args: string[]) => {
    output.length = 0;
    let failure: CliError | null = null;
    try {
      await command(name).run({ ...context, cwd: dir }, [...args, '--json']);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      failure = error;
    }
    return { report: output.length > 0 ? JSON.parse(output.at(-1)!) : null, failure };
  };
  const establishment = async (id: string) => {
    const response = await t.request({ method: 'GET', url: `/api/establishments/${id}` });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data;
  };
  const listed = async (url: string) => {
    const response = await t.request({ method: 'GET', url });
    assert.equal(response.statusCode, 200, response.body);
    return response.json.data as { id: string; attributes: Record<string, unknown>; relationships: any }[];
  };

  before(async () => {
    t = await createTestApp();
    ({ context, output } = cliTestContext(t));
    dir = mkdtempSync(join(tmpdir(), 'tms-import-'));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('imports brands from JSON, then establishments from CSV referring to them, with cities by name or id', async () => {
    const brands = await run('import:brands', [
      file(
        'brands.json',
        JSON.stringify([
          {
            externalId: 'b-1',
            name: 'Test Lodges',
            website: 'https://lodges.example/',
            description: { 'en-US': 'Lodges' },
          },
        ]),
      ),
    ]);
    assert.deepEqual(brands.report, { dataset: 'brands', created: 1, updated: 0, refused: [] });
    assert.equal(brands.failure, null);

    const csv = [
      'external_id,name,kind,labels,city,country,city_id,latitude,longitude,brand_external_id,description_en,description_fr',
      'e-1,Maison Test,guesthouse,green-key|organic,Lyon,FR,,45.76,4.84,b-1,"A quiet house, two rooms","Une maison calme"',
      `e-2,Lodge Deux,ecolodge,,,,${lyonId},,,,"Line one\nline two",`,
    ].join('\r\n');
    const result = await run('import:establishments', [file('establishments.csv', csv)]);
    assert.deepEqual(result.report, { dataset: 'establishments', created: 2, updated: 0, refused: [] });

    const rows = await listed(`/api/establishments?city=${lyonId}&limit=10`);
    assert.equal(rows.length, 2);
    const first = await establishment(rows.find((row) => row.attributes.name === 'Maison Test')!.id);
    assert.deepEqual(first.attributes.labels, ['green-key', 'organic']);
    assert.equal(first.attributes.countryCode, 'FR');
    assert.equal(first.attributes.cityName, 'Lyon');
    assert.equal(first.attributes.description, 'A quiet house, two rooms');
    assert.equal(first.attributes.latitude, 45.76);
    assert.ok(first.relationships.brand.data, 'the brand is linked');
    const second = await establishment(rows.find((row) => row.attributes.name === 'Lodge Deux')!.id);
    assert.equal(second.attributes.countryCode, 'FR', 'the country comes from the city');
    assert.equal(second.attributes.description, 'Line one\nline two');
  });

  it('upserts by external id: a second import updates the rows, with no duplicates', async () => {
    const csv = [
      'external_id,name,kind,city,country',
      'e-1,Maison Test Renamed,hotel,Lyon,FR',
      'e-3,Troisième,hostel,Lyon,fr',
    ].join('\n');
    const result = await run('import:establishments', [file('again.csv', csv)]);
    assert.deepEqual(result.report, { dataset: 'establishments', created: 1, updated: 1, refused: [] });
    const rows = await listed(`/api/establishments?city=${lyonId}&limit=10`);
    assert.deepEqual(rows.map((row) => row.attributes.name).sort(), ['Lodge Deux', 'Maison Test Renamed', 'Troisième']);
    const renamed = rows.find((row) => row.attributes.name === 'Maison Test Renamed')!;
    assert.equal(renamed.attributes.kind, 'hotel');
    assert.deepEqual((await establishment(renamed.id)).attributes.labels, [], 'an update replaces every field');
  });

  it('refuses a broken CSV row in the middle by its line and reason, and imports the others', async () => {
    const csv = [
      'external_id,title_en,title_fr,establishment_external_id,price_min,price_max,currency,commission_rate_bps,partner_url,valid_until',
      'o-1,Room,Chambre,e-1,9000,12000,EUR,800,https://maison.example/book?x=1,2027-01-01',
      'o-2,"Broken ""quoted"" title",,e-1,100,200,EUX,800,https://maison.example/book,',
      'o-3,Script,,e-1,,,EUR,800,javascript:alert(1),',
      'o-4,Elsewhere,,e-unknown,,,EUR,800,https://maison.example/,',
      'o-5,Too much,,e-1,,,EUR,10001,https://maison.example/,',
      'o-6,Short row,,e-1',
      'o-7,Dinner,Dîner,e-3,3000,4500,JPY,500,http://maison.example/dinner,',
    ].join('\n');
    const result = await run('import:offers', [file('offers.csv', csv)]);
    assert.equal(result.report.created, 2);
    assert.equal(result.report.updated, 0);
    assert.deepEqual(
      result.report.refused.map((row: { line: number }) => row.line),
      [3, 4, 5, 6, 7],
    );
    const reasons = result.report.refused.map((row: { reason: string }) => row.reason);
    assert.match(reasons[0], /^currency: "EUX" is not an ISO 4217 currency/);
    assert.match(reasons[1], /^partnerUrl: must use http or https/);
    assert.match(reasons[2], /^establishmentExternalId: no establishment "e-unknown"/);
    assert.match(reasons[3], /^commissionRateBps: /);
    assert.match(reasons[4], /malformed CSV: 4 cells where the header names 10/);
    assert.match(result.failure?.message ?? '', /5 of 7 rows refused/);

    const offers = await listed('/api/offers?limit=50');
    assert.deepEqual(offers.map((offer) => offer.attributes.title).sort(), ['Dinner', 'Room']);
    const room = offers.find((offer) => offer.attributes.title === 'Room')!;
    assert.equal(room.attributes.currency, 'EUR');
    assert.equal(room.attributes.priceMin, 9000);
    assert.equal(room.attributes.commissionRateBps, 800);
    assert.equal(room.attributes.validUntil, '2027-01-01T00:00:00.000+00:00');
  });

  it('names the JSON line each refused row starts on, and refuses unknown fields, kinds and labels', async () => {
    const text = `[
  {"externalId": "j-1", "name": "Fine", "kind": "campsite", "city": "Lyon", "country": "FR"},
  {"externalId": "j-2", "name": "Odd kind", "kind": "castle", "country": "FR"},
  {
    "externalId": "j-3", "name": "Odd label", "kind": "hotel", "country": "FR", "labels": ["shiny"]
  },
  {"externalId": "j-4", "name": "Nowhere", "kind": "hotel", "city": "Atlantis", "country": "FR"},
  {"externalId": "j-5", "name": "Extra", "kind": "hotel", "country": "FR", "stars": 5},
  "not an object"
]`;
    const result = await run('import:establishments', [file('rows.json', text)]);
    assert.equal(result.report.created, 1);
    assert.deepEqual(
      result.report.refused.map(({ line, reason }: { line: number; reason: string }) => [line, reason.split(':')[0]]),
      [
        [3, 'kind'],
        [4, 'labels'],
        [7, 'city'],
        [8, 'stars'],
        [9, 'a row must be an object'],
      ],
    );
  });

  it('refuses a whole file it cannot read as one line, importing nothing', async () => {
    const refused = async (args: string[], pattern: RegExp) => {
      await assert.rejects(command('import:brands').run({ ...context, cwd: dir }, args), (error: unknown) => {
        assert.ok(error instanceof CliError, String(error));
        assert.match(error.message, pattern);
        return true;
      });
    };
    await refused([file('bad.json', '[{"externalId": ')], /not valid JSON/);
    await refused([file('object.json', '{"externalId": "x"}')], /one array of objects/);
    await refused([file('columns.csv', 'external_id,name,colour\nx,y,z\n')], /unknown CSV column "colour"/);
    await refused(['missing.csv'], /cannot read .*missing\.csv: ENOENT/);
    await refused([], /one file is required/);
    const brands = await listed('/api/brands?limit=50');
    assert.deepEqual(
      brands.map((brand) => brand.attributes.name),
      ['Test Lodges'],
    );
  });

  it('prints a readable report without --json, and a progress bar only where there is a terminal', async () => {
    output.length = 0;
    const shown: string[] = [];
    await command('import:brands').run({ ...context, cwd: dir, progress: (line) => shown.push(line) }, [
      file('more.csv', 'external_id,name\nb-1,Test Lodges\nb-2,Other\n'),
    ]);
    assert.deepEqual(output, ['brands: 1 created, 1 updated, 0 refused']);
    assert.equal(shown.at(-1), progressLine('brands', 2, 2));
    assert.match(shown.at(-1)!, /\[#+\] 2\/2 rows 100%$/);
    assert.equal(progressBar('brands', undefined), undefined, 'no terminal, no bar');
  });

  it('refuses, as rows, URLs the database would refuse (https:alert(1)), and imports the rows around them', async () => {
    const noSql = (value: unknown) => assert.doesNotMatch(JSON.stringify(value), /insert into|params|\$1/i);
    const brands = await run('import:brands', [
      file(
        'url-brands.csv',
        'external_id,name,website\nu-1,Scripted Brand,https:alert(1)\nu-2,Fine Brand,HTTPS://fine.example/\n',
      ),
    ]);
    assert.deepEqual(brands.report.refused, [{ line: 2, reason: 'website: must start with http:// or https://' }]);
    assert.equal(brands.report.created, 1);
    const establishments = await run('import:establishments', [
      file(
        'url-establishments.csv',
        [
          'external_id,name,kind,country,website',
          'u-1,Before,hotel,FR,https://before.example/',
          'u-2,Scripted,hotel,FR,https:alert(1)',
          'u-3,Slashless,hotel,FR,http:/one-slash.example/',
          'u-4,After,hotel,FR,',
        ].join('\n'),
      ),
    ]);
    assert.deepEqual(establishments.report, {
      dataset: 'establishments',
      created: 2,
      updated: 0,
      refused: [
        { line: 3, reason: 'website: must start with http:// or https://' },
        { line: 4, reason: 'website: must start with http:// or https://' },
      ],
    });
    assert.match(establishments.failure?.message ?? '', /^2 of 4 rows refused/);
    const offers = await run('import:offers', [
      file(
        'url-offers.csv',
        [
          'external_id,title_en,establishment_external_id,currency,commission_rate_bps,partner_url',
          'u-1,Scripted,u-1,EUR,500,https:alert(1)',
          'u-2,Non-breaking,u-1,EUR,500,https://partner.example/a\u00a0b',
          'u-3,Fine,u-1,EUR,500,https://partner.example/book',
        ].join('\n'),
      ),
    ]);
    assert.deepEqual(
      offers.report.refused.map(({ line }: { line: number }) => line),
      [2, 3],
    );
    assert.equal(offers.report.created, 1);
    for (const result of [brands, establishments, offers]) noSql(result);
    const names = (await listed('/api/establishments?country=FR&limit=50')).map((row) => row.attributes.name);
    assert.ok(names.includes('Before') && names.includes('After'), 'the rows around the refused ones are in');
    assert.ok(!names.includes('Scripted') && !names.includes('Slashless'));
  });

  it('reports a row the database refuses for a rule the service does not know by its line, without SQL', async () => {
    const exec = (text: string) => t.deps.database.withMigrationLock((conn) => conn.exec(text));
    await exec(`ALTER TABLE brands ADD CONSTRAINT brands_operator_rule CHECK (name <> 'Forbidden Name')`);
    try {
      const result = await run('import:brands', [
        file('operator.csv', 'external_id,name\nr-1,Allowed One\nr-2,Forbidden Name\nr-3,Allowed Two\n'),
      ]);
      assert.equal(result.report.created, 2);
      assert.equal(result.report.refused.length, 1);
      assert.equal(result.report.refused[0].line, 3);
      assert.match(result.report.refused[0].reason, /^the database refused it: .*brands_operator_rule.* \(23514\)$/);
      assert.doesNotMatch(JSON.stringify(result), /insert into|params|\$1|r-2/i);
      assert.match(result.failure?.message ?? '', /^1 of 3 rows refused/);
    } finally {
      await exec('ALTER TABLE brands DROP CONSTRAINT brands_operator_rule');
    }
  });

  it('stops at a row the database fails on (not the row’s fault), keeping the rows before it, without SQL', async () => {
    const exec = (text: string) => t.deps.database.withMigrationLock((conn) => conn.exec(text));
    await exec(`
      CREATE FUNCTION test_disk_trouble() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name = 'Disk Trouble' THEN
          RAISE EXCEPTION 'could not write block 7 of the brands table' USING ERRCODE = '58030';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_disk_trouble BEFORE INSERT OR UPDATE ON brands
        FOR EACH ROW EXECUTE FUNCTION test_disk_trouble();
    `);
    try {
      const result = await run('import:brands', [
        file('trouble.csv', 'external_id,name\ns-1,Saved First\ns-2,Disk Trouble\ns-3,Never Read\n'),
      ]);
      assert.deepEqual(result.report, {
        dataset: 'brands',
        created: 1,
        updated: 0,
        refused: [{ line: 3, reason: 'the database failed: could not write block 7 of the brands table (58030)' }],
        stoppedAt: 3,
      });
      assert.match(result.failure?.message ?? '', /^the import stopped at line 3 .*import the file again/);
      output.length = 0;
      await assert.rejects(
        command('import:brands').run({ ...context, cwd: dir }, ['trouble.csv']),
        (error) => error instanceof CliError,
      );
      assert.deepEqual(output, [
        'brands: 0 created, 1 updated, 1 refused',
        '  line 3: the database failed: could not write block 7 of the brands table (58030)',
        '  stopped at line 3: the rows after it were not imported',
      ]);
      const names = (await listed('/api/brands?limit=50')).map((brand) => brand.attributes.name);
      assert.ok(names.includes('Saved First') && !names.includes('Never Read'));
    } finally {
      await exec('DROP TRIGGER test_disk_trouble ON brands; DROP FUNCTION test_disk_trouble()');
    }
  });
});

describe('the demo catalogue', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('imports cleanly, and a second import only updates', async () => {
    const { context, output } = cliTestContext(t);
    await command('import:demo').run(context, ['--json']);
    const reports = JSON.parse(output.at(-1)!);
    assert.deepEqual(
      reports.map((report: { dataset: string; created: number; refused: unknown[] }) => [
        report.dataset,
        report.created,
        report.refused.length,
      ]),
      [
        ['brands', 6, 0],
        ['establishments', 32, 0],
        ['offers', 41, 0],
      ],
    );
    await command('import:demo').run(context, ['--json']);
    const again = JSON.parse(output.at(-1)!);
    assert.deepEqual(
      again.map((report: { created: number; updated: number }) => [report.created, report.updated]),
      [
        [0, 6],
        [0, 32],
        [0, 41],
      ],
    );
    const brands = await t.request({ method: 'GET', url: '/api/brands?limit=50' });
    assert.equal(brands.json.data.length, 6);
    const inCopenhagen = await t.request({ method: 'GET', url: '/api/establishments?country=DK' });
    assert.equal(inCopenhagen.json.data[0].attributes.name, 'Havn Hotel');
  });
});

describe('imports through the command socket of a running server', () => {
  it('reads the file from the operator’s directory and streams the report back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tms-import-server-'));
    const workDir = mkdtempSync(join(tmpdir(), 'tms-import-cwd-'));
    const server = await createTestApp({ env: { DATA_DIR: dataDir } });
    const commandServer = await startCommandServer(
      dataDir,
      { config: server.deps.config, ...server.services, via: 'server' },
      server.app.log,
    );
    try {
      assert.ok(
        commands.some((candidate) => candidate.name === 'import:establishments'),
        'registered',
      );
      writeFileSync(join(workDir, 'brands.csv'), 'external_id,name\nsock-1,Socket Brand\nsock-2,\n');
      const out: string[] = [];
      const err: string[] = [];
      const progress: string[] = [];
      const cwd = process.cwd();
      process.chdir(workDir);
      let exit: number | null;
      try {
        exit = await runOnServer(dataDir, ['import:brands', 'brands.csv'], {
          print: (line) => out.push(line),
          printError: (line) => err.push(line),
          progress: (line) => progress.push(line),
        });
      } finally {
        process.chdir(cwd);
      }
      assert.equal(exit, 1, 'a refused row makes the command fail');
      assert.deepEqual(out, ['brands: 1 created, 0 updated, 1 refused', '  line 3: name: is required']);
      assert.match(err.at(-1)!, /^error: 1 of 2 rows refused/);
      assert.match(progress.at(-1)!, /2\/2 rows/);
      const brands = await server.request({ method: 'GET', url: '/api/brands' });
      assert.deepEqual(
        brands.json.data.map((brand: { attributes: { name: string } }) => brand.attributes.name),
        ['Socket Brand'],
      );
    } finally {
      await commandServer.stop();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
