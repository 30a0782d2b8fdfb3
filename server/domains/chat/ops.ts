import { currentOperator } from '../../platform/audit';
import type { OpsCommand } from '../../platform/ops/commands';
import { customerUrl, setCustomerUrl } from './support';

/** Operator commands of customer service (the support inbox itself is in the web console at /ops). */
export const chatOps: readonly OpsCommand[] = [
  {
    name: 'support',
    help: [
      ['support url', "where set/get_customer_url sends users (the app's own chat unless an outside URL is set)"],
      ['support url set <https-url>', 'send users to an outside customer-service page instead (audited)'],
      ['support url clear', "back to the app's own support chat (audited)"],
    ],
    async run(words, { db, out }) {
      const [what, action, value] = words;
      if (what !== 'url') {
        out('usage: npm run ops -- support url [set <https-url>|clear]');
        return 2;
      }
      if (action === undefined) {
        const current = await customerUrl(db);
        out(`${current.url}${current.internal ? " (the app's own chat)" : ''}`);
        return 0;
      }
      if (action === 'clear') {
        await setCustomerUrl(db, null, currentOperator());
        out("customer service: the app's own chat");
        return 0;
      }
      if (action === 'set' && value) {
        try {
          await setCustomerUrl(db, value, currentOperator());
        } catch (err) {
          out(err instanceof Error ? err.message : String(err));
          return 1;
        }
        out(`customer service: ${value}`);
        return 0;
      }
      out('usage: npm run ops -- support url [set <https-url>|clear]');
      return 2;
    },
  },
];
