// The rendered width of an element, followed as it resizes: a chart draws at its real size, so its
// text is as large on the page as the stylesheet says rather than scaled down with the SVG.
import { useLayoutEffect, useState } from 'react';

/** [width, ref callback]; `fallback` until the element is in the page. */
export function useWidth(fallback: number): [number, (el: Element | null) => void] {
  const [el, setEl] = useState<Element | null>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    if (!el) return;
    setWidth(Math.round(el.getBoundingClientRect().width) || fallback);
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [el, fallback]);
  return [width, setEl];
}
