/** The floating hover summary shared by the graph and timeline views. */
export class Tooltip {
  constructor(private readonly el: HTMLElement) {}

  show(e: MouseEvent, text: string): void {
    this.el.textContent = text;
    this.el.hidden = false;
    this.move(e);
  }

  move(e: MouseEvent): void {
    this.el.style.left = `${e.clientX + 14}px`;
    this.el.style.top = `${e.clientY + 14}px`;
  }

  hide(): void {
    this.el.hidden = true;
  }
}
