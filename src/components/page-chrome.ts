import { createContext, useContext } from 'react';

/**
 * What a page's frame asks of the app around it: going back, opening the left menu and naming the document. The app
 * shell provides it (src/app/PageChrome.tsx), so the frame itself stays presentational.
 */
export interface PageChrome {
  goBack: () => void;
  openMenu: () => void;
  showTitle: (title: string) => void;
}

const nothing = () => {};
export const PageChromeContext = createContext<PageChrome>({ goBack: nothing, openMenu: nothing, showTitle: nothing });

export const usePageChrome = (): PageChrome => useContext(PageChromeContext);
