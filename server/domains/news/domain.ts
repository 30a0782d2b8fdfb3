import { newsCalls } from '../../../protocol/news';
import { defineDomain } from '../contract';
import { newsHandlers } from './calls';
import { newsConsoleSection } from './console';
import { newsErrors } from './errors';
import { migration0021 } from './migrations/0021_news';
import { newsOps } from './ops';
import { withNews } from './tables';

/** News and notices: published to readers, written in the console. */
export const newsDomain = defineDomain({
  name: 'news',
  calls: newsCalls,
  errors: newsErrors,
  migrations: [migration0021],
  tables: withNews,
  ops: newsOps,
  start: (ctx) => {
    const news = { database: ctx.database, now: ctx.now };
    return { handlers: newsHandlers(news), console: [newsConsoleSection(news)] };
  },
});
