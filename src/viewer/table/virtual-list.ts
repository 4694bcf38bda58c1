/**
 * A virtualised grid (WAI-ARIA grid pattern, https://www.w3.org/WAI/ARIA/apg/patterns/grid/): rows of one
 * fixed height over a spacer as tall as all of them, and only the rows in view (plus a margin) in the DOM —
 * 100,000 rows scroll like 100. One row is the tab stop (roving tabindex); arrow keys, Page Up/Down and
 * Home/End move it, Enter opens the row's document. Cells are text; the id cell is a real link.
 */
import { h } from '../dom.js';
import { cellText, cellValue, type TableRow } from './cells.js';

/** Row height in px (CSS `.vt-row` has the same). */
export const ROW_HEIGHT = 32;
/** Rows drawn beyond each edge of the view. */
const OVERSCAN = 10;
/** Ask for the next page when the view is this many rows from the loaded end. */
const NEAR_END = 100;

export interface VirtualListOptions {
  label: string;
  columns: readonly string[];
  header: HTMLElement;
  count(): number;
  row(index: number): TableRow | undefined;
  /** The `?…` link of a row's document. */
  href(row: TableRow): string;
  open(row: TableRow): void;
  /** Called when the view nears the last row loaded. */
  nearEnd(): void;
  /**
   * End was pressed: load what the last row of the whole list needs (the grid focuses the last row loaded
   * at once, and the last row again when this settles).
   */
  toEnd?(): Promise<void>;
  /**
   * What changed in a cell since the table's `from=` version (src/viewer/table/since.ts): the cell gets a
   * class, a glyph and words for screen readers (never colour alone); `was` is its value then.
   */
  change?(row: TableRow, column: string): { kind: 'added' | 'changed'; was?: string } | undefined;
}

export class VirtualList {
  readonly element: HTMLElement;
  private readonly body: HTMLElement;
  private readonly drawn = new Map<number, HTMLElement>();
  private focused = 0;
  private frame = 0;
  /** Whether the sorted column was brought into view (once: later the visitor's own scrolling wins). */
  private revealed = false;

  constructor(private readonly o: VirtualListOptions) {
    this.body = h('div', { class: 'vt-body', attrs: { role: 'rowgroup' } });
    this.element = h(
      'div',
      {
        class: 'vt-scroll',
        attrs: { role: 'grid', 'aria-label': o.label, 'aria-colcount': o.columns.length, tabindex: 0 },
        on: {
          scroll: () => this.schedule(),
          keydown: (e) => this.key(e),
        },
      },
      o.header,
      this.body,
    );
    this.element.style.setProperty('--vt-cols', `14rem repeat(${Math.max(0, o.columns.length - 1)}, 11rem)`);
  }

  /** Redraw after rows were loaded or filtered (keeps the focused row when it still exists). */
  refresh(): void {
    const count = this.o.count();
    this.focused = Math.min(this.focused, Math.max(0, count - 1));
    this.element.setAttribute('aria-rowcount', String(count + 1));
    this.body.style.height = `${count * ROW_HEIGHT}px`;
    // Rows are redrawn from the new list; a focused row keeps the focus (a page that loads while the
    // visitor moves through the rows must not drop it on the body).
    const active = this.element.ownerDocument.activeElement;
    const hadFocus = active instanceof HTMLElement && active.classList.contains('vt-row') && this.body.contains(active);
    for (const [, el] of this.drawn) el.remove();
    this.drawn.clear();
    this.draw();
    if (hadFocus) this.drawn.get(this.focused)?.focus({ preventScroll: true });
    this.revealSorted();
  }

  /**
   * At 375 px the box shows about one and a half columns: scroll it sideways so the column the rows are
   * sorted by (its header has `aria-sort`) is in view (issue 40 item 12). Once the box has a width.
   */
  private revealSorted(): void {
    if (this.revealed || this.element.clientWidth === 0) return;
    this.revealed = true;
    const sorted = this.o.header.querySelector<HTMLElement>('[aria-sort="ascending"], [aria-sort="descending"]');
    if (!sorted) return;
    const right = sorted.offsetLeft + sorted.offsetWidth;
    // At the box's left edge (not a cut column before it); the browser clamps it for the last column.
    if (right > this.element.scrollLeft + this.element.clientWidth) this.element.scrollLeft = sorted.offsetLeft;
  }

  /** Scroll so that `top` px of rows are above the view. */
  scrollTo(top: number): void {
    this.element.scrollTop = top;
    this.draw();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private headerHeight(): number {
    return this.o.header.offsetHeight;
  }

  private draw(): void {
    const count = this.o.count();
    const top = Math.max(0, this.element.scrollTop - this.headerHeight());
    const height = this.element.clientHeight || ROW_HEIGHT * 20;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(count, Math.ceil((top + height) / ROW_HEIGHT) + OVERSCAN);
    for (const [i, el] of this.drawn) {
      if (i < first || i >= last) {
        el.remove();
        this.drawn.delete(i);
      }
    }
    for (let i = first; i < last; i++) {
      const row = this.o.row(i);
      if (!row || this.drawn.has(i)) continue;
      const el = this.rowElement(i, row);
      this.drawn.set(i, el);
      this.body.append(el);
    }
    if (last >= count - NEAR_END) this.o.nearEnd();
  }

  private rowElement(i: number, row: TableRow): HTMLElement {
    const cells = this.o.columns.map((c) => {
      const change = this.o.change?.(row, c);
      const content = c === 'id' ? this.idLink(row) : cellText(cellValue(row, c));
      if (!change) return h('div', { class: 'vt-cell', attrs: { role: 'gridcell' } }, content);
      return h(
        'div',
        {
          class: `vt-cell vt-${change.kind}`,
          attrs: { role: 'gridcell', title: change.was === undefined ? undefined : `was: ${change.was}` },
          dataset: { change: change.kind },
        },
        h('span', { class: 'vt-mark', attrs: { 'aria-hidden': 'true' } }, change.kind === 'added' ? '+' : '±'),
        content,
        h('span', { class: 'vt-sr' }, changeWords(change)),
      );
    });
    const added = cells.some((cell) => cell.dataset.change === 'added');
    const el = h(
      'div',
      {
        class: added ? 'vt-row vt-row-added' : 'vt-row',
        attrs: { role: 'row', 'aria-rowindex': i + 2, tabindex: i === this.focused ? 0 : -1 },
        dataset: { index: String(i), id: row.id },
      },
      ...cells,
    );
    el.style.top = `${i * ROW_HEIGHT}px`;
    return el;
  }

  /** The id cell's link to the row's document (a plain click stays in the page). */
  private idLink(row: TableRow): HTMLElement {
    const link = h('a', { attrs: { href: this.o.href(row), tabindex: -1 } }, cellText(row.id));
    link.addEventListener('click', (e) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return; // a new tab: the link's job
      e.preventDefault();
      this.o.open(row);
    });
    return link;
  }

  private key(e: KeyboardEvent): void {
    const count = this.o.count();
    if (count === 0) return;
    const page = Math.max(1, Math.floor((this.element.clientHeight - this.headerHeight()) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: this.focused + 1,
      ArrowUp: this.focused - 1,
      PageDown: this.focused + page,
      PageUp: this.focused - page,
      Home: 0,
      End: count - 1,
    };
    if (e.key === 'Enter' && (e.target as HTMLElement).classList.contains('vt-row')) {
      const row = this.o.row(this.focused);
      if (row) {
        e.preventDefault();
        this.o.open(row);
      }
      return;
    }
    const to = moves[e.key];
    if (to === undefined || (e.target as HTMLElement).closest('.vt-head')) return;
    e.preventDefault();
    this.focus(Math.min(count - 1, Math.max(0, to)));
    if (e.key === 'End' && this.o.toEnd) {
      void this.o.toEnd().then(() => {
        // Only when the focus is still where End put it (the visitor may have moved on meanwhile).
        if (this.focused === count - 1 && this.element.isConnected) this.focus(Math.max(0, this.o.count() - 1));
      });
    }
  }

  /** Make row `i` the focused one: scroll it into view, draw, focus it. */
  focus(i: number): void {
    this.drawn.get(this.focused)?.setAttribute('tabindex', '-1');
    this.focused = i;
    const head = this.headerHeight();
    const view = this.element.clientHeight - head;
    const y = i * ROW_HEIGHT;
    if (y < this.element.scrollTop) this.element.scrollTop = y;
    else if (y + ROW_HEIGHT > this.element.scrollTop + view) this.element.scrollTop = y + ROW_HEIGHT - view;
    this.draw();
    const el = this.drawn.get(i);
    el?.setAttribute('tabindex', '0');
    el?.focus({ preventScroll: true });
    // The box may reach below the pinned footer: scroll the page too, so the row is never under it (the
    // page's scroll-padding-bottom, 00-base.css, keeps the footer's height clear).
    el?.scrollIntoView({ block: 'nearest' });
  }
}

/** What a screen reader hears after a marked cell's value. */
function changeWords(change: { kind: 'added' | 'changed'; was?: string }): string {
  if (change.kind === 'added') return ' (added since the version compared with)';
  return change.was === undefined || change.was === '' ? ' (changed; absent before)' : ` (changed; was ${change.was})`;
}
