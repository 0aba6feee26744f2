import type { Page } from "@playwright/test";

/** The smallest tap target on a phone: buttons, fields and button-like links. */
const MIN_TAP = 44;

/** What does not fit: the page's own width, controls outside the screen, tap targets too small. */
export async function layoutProblems(page: Page) {
  return page.evaluate(
    ({ minTap }) => {
      const width = document.documentElement.clientWidth;
      const problems: string[] = [];
      if (document.documentElement.scrollWidth > width) {
        problems.push(`the page is ${document.documentElement.scrollWidth} px wide on a ${width} px screen`);
      }
      const name = (el: Element) =>
        `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
      const controls = document.querySelectorAll(
        "a[href], button, summary, select, textarea, input:not([type=hidden]), label[for]",
      );
      for (const el of controls) {
        const box = el.getBoundingClientRect();
        // Not rendered, or visually hidden for screen readers (the 1 px sr-only box).
        if (box.width <= 1 || box.height <= 1 || getComputedStyle(el).visibility === "hidden") continue;
        if (box.left < -0.5 || box.right > width + 0.5) {
          problems.push(`${name(el)} is outside the screen (${Math.round(box.left)}–${Math.round(box.right)} px)`);
        }
        // Links inside text are exempt (WCAG 2.5.8); a link laid out as a box is a button to a thumb.
        // A label that stands for a visually hidden radio or checkbox (the review's stars) is the target.
        const hiddenControl = el.matches("label[for]") ? document.getElementById(el.getAttribute("for")!) : null;
        const labelIsTarget = hiddenControl ? hiddenControl.getBoundingClientRect().width <= 1 : false;
        const buttonLike =
          el.matches("button, summary, select, textarea, input:not([type=checkbox]):not([type=radio])") ||
          (el.matches("a") && getComputedStyle(el).display !== "inline") ||
          labelIsTarget;
        if (buttonLike && box.height < minTap - 0.5) {
          problems.push(`${name(el)} is ${Math.round(box.height)} px tall (less than ${minTap})`);
        }
      }
      return problems;
    },
    { minTap: MIN_TAP },
  );
}
