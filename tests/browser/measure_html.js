// Injected into a copy of an HTML report (its Content-Security-Policy removed) by
// test_html_labels.sh; the report itself runs no script. After load it writes, as JSON into
// a pre element with id "measure": every timeline SVG's <text> boxes (getBBox, in the SVG's units) that
// overlap another by more than half a pixel both ways, and every text node outside pre,
// code, title and style elements that holds a backtick or "**" (Markdown shown literally).
window.addEventListener("load", () => {
  const result = { svgs: 0, labels: 0, overlaps: [], markdown: [] };
  document.querySelectorAll("section.timeline svg").forEach((svg) => {
    result.svgs++;
    const boxes = [];
    svg.querySelectorAll("text").forEach((t) => boxes.push({ b: t.getBBox(), s: t.textContent }));
    result.labels += boxes.length;
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].b, c = boxes[j].b;
        const ox = Math.min(a.x + a.width, c.x + c.width) - Math.max(a.x, c.x);
        const oy = Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y);
        if (ox > 0.5 && oy > 0.5)
          result.overlaps.push(`${svg.getAttribute("aria-label")}: "${boxes[i].s}" / "${boxes[j].s}" ` +
                               `overlap ${ox.toFixed(1)} x ${oy.toFixed(1)} px`);
      }
  });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const n = walker.currentNode;
    if (n.parentElement.closest("pre, code, title, style, script")) continue;
    if (/`|\*\*/.test(n.nodeValue)) result.markdown.push(n.nodeValue.trim().slice(0, 160));
  }
  const p = document.createElement("pre");
  p.id = "measure";
  p.textContent = JSON.stringify(result);
  document.body.appendChild(p);
});
