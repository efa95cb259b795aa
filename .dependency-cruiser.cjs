// The directions imports may take (ADR 0060). scripts/test.sh and apps/server/src/layers.test.ts
// run `npx depcruise --config .dependency-cruiser.cjs apps/server/src apps/web/src
// packages/contracts/src`, which reports any other. Server layers, top to bottom:
//   composition roots (main, cli, app, context, programs/) → routes → services → queue → tools
//   (tool modules → tools/steps) → convert → engines; db and storage serve services and the queue;
//   classic/ (the AI's classic language technology) serves services and imports nothing of the app.
//   texts/ (the words the server says, in every site language) serves every layer and imports nothing.
const src = '^apps/server/src';

/** A layer may not import the modules these patterns name. */
const forbid = (name, comment, from, to, extra = {}) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, ...extra.from },
  to: { path: to, ...extra.to },
});

module.exports = {
  forbidden: [
    forbid(
      'engines-are-adapters',
      'An engine wraps one outside program or library; it knows nothing of the app above it.',
      `${src}/engines/`,
      `${src}/(convert|tools|services|queue|routes|db|storage|programs)/|${src}/(context|app|main|cli)\\.ts$`,
    ),
    forbid(
      'convert-stands-alone',
      'The document model and its readers and writers use engines at most, never tools, services or the app.',
      `${src}/convert/`,
      `${src}/(tools|services|queue|routes|db|storage|programs)/|${src}/(context|app|main|cli)\\.ts$`,
    ),
    forbid(
      'classic-stands-alone',
      "The classic provider's language technology (words, retrieval, summaries) is pure functions over text: it imports nothing of the app.",
      `${src}/classic/`,
      `${src}/(?!classic/)`,
    ),
    forbid(
      'tools-below-services',
      'A tool runs on files it is given: no database, storage, services, queue or routes.',
      `${src}/tools/`,
      `${src}/(services|queue|routes|db|storage|programs)/|${src}/(context|app|main|cli)\\.ts$`,
    ),
    forbid(
      'tools-do-not-call-tools',
      'A multi-step tool lists shared steps (tools/steps/); one tool module never imports another (tool.ts and budget.ts are the interface they share).',
      `${src}/tools/(?!registry\\.ts)[^/]+\\.ts$`,
      `${src}/tools/(?!tool\\.ts|budget\\.ts|steps/)`,
    ),
    forbid(
      'steps-below-tools',
      'A step is shared by tools and so imports none of them.',
      `${src}/tools/steps/`,
      `${src}/tools/(?!tool\\.ts|budget\\.ts|steps/)`,
    ),
    forbid(
      'queue-below-services',
      'The queue runs tools; services enqueue and read tasks through it and the database, not the other way.',
      `${src}/queue/`,
      `${src}/(services|routes|programs)/|${src}/(app|main|cli)\\.ts$`,
    ),
    forbid(
      'services-below-routes',
      'Services know nothing of HTTP routes.',
      `${src}/services/`,
      `${src}/(routes|programs)/|${src}/(app|main|cli)\\.ts$`,
    ),
    forbid(
      'routes-use-services',
      'Routes are thin: SQL and files go through services.',
      `${src}/routes/`,
      `${src}/(db|storage|queue|programs)/`,
    ),
    forbid(
      'db-storage-and-mail-are-leaves',
      'Repositories, storage and mail import nothing of the app.',
      `${src}/(db|storage|mail)/`,
      `${src}/(?!db/|storage/|mail/|config\\.ts$|ids\\.ts$)`,
    ),
    forbid(
      'texts-are-leaves',
      "The server's words (texts/) are said by every layer, so they import nothing of the app.",
      `${src}/texts/`,
      `${src}/(?!texts/)`,
    ),
    forbid(
      'programs-are-child-entries',
      'A child program packs engines and convert/ only: nothing of the server.',
      `${src}/programs/`,
      `${src}/(?!engines/|convert/)`,
    ),
    forbid('sql-in-db', 'The query builder is used in db/ only.', `${src}/(?!db/)`, '^node_modules/kysely/|^kysely$', {
      from: { pathNot: '\\.test\\.ts$' },
    }),
    {
      name: 'resolvable',
      comment: 'Every import resolves: one that does not would escape the rules above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    forbid(
      'web-uses-contracts-only',
      'The web app shares the contracts package with the server, nothing else of it.',
      '^apps/web/',
      '^apps/(?!web/)',
    ),
    forbid(
      'contracts-import-no-app',
      'The contracts package is imported by the apps, never the reverse.',
      '^packages/contracts/',
      '^apps/',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    // Type-only imports count: a type from a higher layer couples just the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
