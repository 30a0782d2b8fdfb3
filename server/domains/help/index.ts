/** The public surface of this module: other code imports it only through this file. */

export {
  createArticle,
  deleteArticle,
  getArticleForOps,
  type HelpArticleForOps,
  type HelpArticleInput,
  type HelpArticlePatch,
  type HelpTextInput,
  listArticlesForOps,
  type OperatorAction,
  setPublished,
  updateArticle,
} from './articles';
export { type HelpServices, helpHandlers } from './calls';
export { helpConsoleSection } from './console';
export { helpDomain } from './domain';
export * from './migrations/0018_help';
export { helpOps, runHelpCommand } from './ops';
export { addSampleArticles } from './samples';
export { type HelpTables, withHelp } from './tables';
