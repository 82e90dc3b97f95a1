import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { installDialogPolyfill } from './dialog-polyfill';
import { installUserTiming } from './user-timing';

installDialogPolyfill();
installUserTiming();
// Testing Library's 1 s wait for findBy/waitFor fails on a busy 2-core machine; it guards hangs, not speed.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});
