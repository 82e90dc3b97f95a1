// The Element Timing API's attribute (https://wicg.github.io/element-timing/): the browser reports
// when an element marked with it is painted. The review marks each item's title and image, so the
// time from a keypress to the next item on screen can be measured in the field and by bench:ui.
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- must repeat React's type parameter to merge
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
