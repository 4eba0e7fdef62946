/** cli/commands/: what the rest of the cli room imports from this folder. */
export { registerCrawlCommand } from './crawl.js';
export { registerDemoCommand } from './demo.js';
export { registerEvaluateCommand } from './evaluate.js';
export { registerExportCommand } from './export.js';
export { registerKeywordsCommand } from './keywords.js';
export { registerRepairCommand } from './repair.js';
export { registerSandboxCommand } from './sandbox.js';
export { registerTrainCommand } from './train.js';
export { registerUiCommand } from './ui.js';
export { registerWorkerCommand } from './worker.js';
