/** The public surface of this module: other code imports it only through this file. */

export {
  createNews,
  deleteNews,
  getNewsForOps,
  listNewsForOps,
  type NewsArticleForOps,
  type NewsArticleInput,
  type NewsArticlePatch,
  setNewsPublished,
  updateNews,
} from './articles';
export { type NewsServices, newsHandlers } from './calls';
export { newsConsoleSection } from './console';
export { newsDomain } from './domain';
export * from './migrations/0021_news';
export { newsOps, runNewsCommand } from './ops';
export { addSampleNews } from './samples';
export { type NewsTables, withNews } from './tables';
