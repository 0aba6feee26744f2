/**
 * The documents' own CSS (plain, not Tailwind: the PDF is rendered from this markup alone). In
 * print, everything but the document is hidden (the shop's header, footer and toasts), the page
 * takes the printer's paper size (A4 or US Letter) and is numbered ("Page 1 of 2", a page margin
 * box), and the type is set so that ten lines fit one page of either size. Longer documents break
 * between table rows only, repeat the table's header on every page, and keep the totals (printed
 * once, not repeated as a table footer would be), the bank details, each legal note and the
 * footer whole (`pw-keep`).
 * On a screen narrower than 768 px (a phone) the lines become stacked cards, each cell named by
 * its `data-label`, and long words wrap; that block is for screens only, so print and the PDF
 * (Chromium's print media) keep the table.
 */
export const DOCUMENT_CSS = `
.pw-doc{max-width:190mm;margin:0 auto;padding:24px 16px;color:#000;background:#fff;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",Arial,sans-serif}
.pw-doc h1{font-size:24px;margin:0 0 4px}
.pw-doc h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;margin:0 0 4px;color:#000}
.pw-doc p{margin:0}
.pw-doc .pw-head{display:flex;justify-content:space-between;gap:24px;flex-wrap:wrap;border-bottom:2px solid #000;padding-bottom:12px;margin-bottom:16px}
.pw-doc .pw-note{margin-top:6px;font-weight:600;max-width:110mm}
.pw-doc .pw-meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}
.pw-doc .pw-meta dt{font-weight:600}
.pw-doc .pw-meta dd{margin:0}
.pw-doc .pw-parties{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:16px;margin-bottom:16px}
.pw-doc .pw-pre{white-space:pre-line}
.pw-doc table{width:100%;border-collapse:collapse;margin-top:8px}
.pw-doc caption{text-align:left;font-weight:600;padding-bottom:4px}
.pw-doc th,.pw-doc td{border-bottom:1px solid #555;padding:6px 4px;text-align:left;vertical-align:top}
.pw-doc thead th{border-bottom:2px solid #000}
.pw-doc .pw-num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.pw-doc tfoot th,.pw-doc tfoot td{border-bottom:none;font-weight:700}
.pw-doc tr{break-inside:avoid;page-break-inside:avoid}
.pw-doc thead{display:table-header-group}
.pw-doc .pw-foot{margin-top:24px;font-size:12px}
.pw-doc .pw-tax-note{margin-top:12px;font-weight:600}
.pw-doc .pw-bank{margin-top:16px}
.pw-actions{max-width:190mm;margin:16px auto 0;padding:0 16px;display:flex;flex-wrap:wrap;gap:12px;align-items:center}
.pw-actions a{color:#1d4ed8;text-decoration:underline;font-weight:500;min-height:44px;display:inline-flex;align-items:center}
@page{size:auto;margin:12mm 14mm 14mm;@bottom-right{content:"Page " counter(page) " of " counter(pages);font:8pt "Liberation Sans",Arial,sans-serif;color:#000}}
@media print{
  body:has(.pw-doc)>:not(main){display:none!important}
  body:has(.pw-doc){background:#fff!important}
  .pw-actions{display:none!important}
  .pw-doc{max-width:none;padding:0;font-size:9pt;line-height:1.25}
  .pw-doc *{color:#000!important;background:transparent!important;box-shadow:none!important}
  .pw-doc h1{font-size:17pt}
  .pw-doc h2{font-size:8.5pt}
  .pw-doc .pw-head{display:grid;grid-template-columns:1fr max-content;padding-bottom:8px;margin-bottom:10px}
  .pw-doc thead th{white-space:nowrap}
  .pw-doc .pw-head .pw-meta{grid-template-columns:max-content 1fr max-content 1fr;column-gap:10px}
  .pw-doc .pw-head .pw-meta dd{overflow-wrap:anywhere}
  .pw-doc .pw-parties{margin-bottom:8px;grid-template-columns:1fr 1fr}
  .pw-doc table{margin-top:4px}
  .pw-doc th,.pw-doc td{padding:2px 4px}
  .pw-doc tfoot{display:table-row-group;break-inside:avoid;page-break-inside:avoid}
  .pw-doc .pw-bank{margin-top:10px}
  .pw-doc .pw-bank .pw-meta{grid-template-columns:max-content 1fr max-content 1fr}
  .pw-doc .pw-tax-note{margin-top:8px}
  .pw-doc .pw-foot{margin-top:12px;font-size:8.5pt}
}
.pw-doc .pw-keep{break-inside:avoid;page-break-inside:avoid}
@media screen and (max-width:767.98px){
  .pw-doc{overflow-wrap:anywhere}
  .pw-doc table,.pw-doc tbody,.pw-doc tfoot,.pw-doc caption{display:block}
  .pw-doc thead{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
  .pw-doc tbody tr,.pw-doc tfoot tr{display:grid;grid-template-columns:1fr 1fr;gap:4px 12px;padding:8px 0;border-bottom:1px solid #555}
  .pw-doc tfoot tr{border-bottom:none}
  .pw-doc tbody td,.pw-doc tfoot th,.pw-doc tfoot td,.pw-doc td.pw-num{display:block;min-width:0;padding:0;border:none;text-align:left;white-space:normal}
  .pw-doc td[data-label]::before{content:attr(data-label);display:block;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em}
  .pw-doc td.pw-part,.pw-doc tfoot th{grid-column:1/-1;order:-1;font-weight:600}
  .pw-doc td:empty{display:none}
}
`;
