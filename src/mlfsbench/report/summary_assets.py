"""The summary page's style and script (static text): the rules that fit it
into the Snakemake report's landing view, the print rules, and the
standalone page's small script (:mod:`mlfsbench.report.summary`)."""

# The report's landing view puts the description beside the rule graph in a
# flex row, centres it in a screen-high box (a tall page would lose its top;
# a wide one its left edge) and narrows it to max-w-lg; the first rules stack
# the rule graph below the summary (off the first screen), keep the summary
# within the view's width (wide tables scroll in their own box) and undo the
# rest. The print rules let either page run over as many sheets as it needs
# (the report's view is a fixed-height scroller on screen).
STYLE = """
div.h-screen:has(.mlfs-summary){align-items:flex-start;justify-content:flex-start}
div.grow:has(> div > .prose .mlfs-summary){flex-direction:column;min-width:0;
 width:100%}
div.py-2:has(> .prose .mlfs-summary){max-width:100%;min-width:0}
div.prose:has(.mlfs-summary){max-width:1200px}
.mlfs-summary{font-family:sans-serif;max-width:1200px}
.mlfs-summary h1{font-size:1.5em;margin:.4em 0}
.mlfs-summary h2{margin:.8em 0 .2em;display:inline}
.mlfs-summary table{border-collapse:collapse;font-size:90%;margin:.4em 0}
.mlfs-summary td,.mlfs-summary th{padding:2px 6px;border-bottom:1px solid #ccc;
 text-align:left;vertical-align:top}
.mlfs-summary table.overview td.n,.mlfs-summary table.paper td{text-align:right}
.mlfs-summary table.overview th.paper{background:#f2f2f2;font-weight:normal}
.mlfs-summary table.overview tr.total td{font-weight:bold}
.mlfs-summary table.paper caption{caption-side:top;text-align:left;
 font-size:85%;color:#444}
.mlfs-summary tr.reproduced,.mlfs-summary td.reproduced{background:#d8f0d8}
.mlfs-summary tr.not-reproduced,.mlfs-summary td.not-reproduced{background:#f6d5d5}
.mlfs-summary tr.not-checkable-here{background:#eeeeee}
.mlfs-summary td.depends{background:#fbeecb}
.mlfs-summary table.grid{font-size:95%;margin:2px 0 6px}
.mlfs-summary div.legend{font-size:85%;max-width:60em;margin:4px 0 8px}
.mlfs-summary div.legend p,.mlfs-summary div.legend ul{margin:2px 0}
.mlfs-summary td.verdict{min-width:18em}
.mlfs-summary details.how p{font-size:85%;margin:2px 0;max-width:60em}
.mlfs-summary details summary{cursor:pointer;color:#245;font-size:85%}
.mlfs-summary a.permalink{color:inherit;text-decoration:none}
.mlfs-summary .scroll{max-width:100%;overflow-x:auto}
.mlfs-summary div.tables{display:flex;flex-wrap:wrap;gap:4px 24px;
 align-items:flex-start}
.mlfs-summary div.tables table.paper caption{min-width:24em}
.mlfs-summary img{max-width:100%;height:auto;margin:2px}
.mlfs-summary figure{margin:4px 0}
.mlfs-summary figcaption{font-size:85%;color:#444}
.mlfs-summary .figs{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start}
.mlfs-summary [id]{scroll-margin-top:5em}
.mlfs-summary table.paper [id]{scroll-margin-top:7em}
.mlfs-summary :target{outline:3px solid #e0a000;outline-offset:-2px}
.mlfs-summary .filters{font-size:90%;margin:.3em 0}
.mlfs-summary th.sortable{cursor:pointer}
@media print{
 html,body,div.h-screen,div.grow,div.overflow-auto,div.overflow-y-auto{
  height:auto!important;max-height:none!important;overflow:visible!important}
 .mlfs-summary .scroll{overflow:visible}
 .mlfs-summary .filters,.mlfs-summary nav.contents{display:none}
 .mlfs-summary tr,.mlfs-summary figure{break-inside:avoid}
 .mlfs-summary :target{outline:none}
}
"""

#: The standalone page's script: a claim id or evidence link opens the
#: folded sections around its target (also when the page opens on it) and
#: brings a table cell into view with its table's caption and header;
#: printing opens every folded section; the claim tables filter by robust
#: verdict and text and sort by a column on a header click. The page works
#: without it (every section is open, every row shown).
SCRIPT = """
(function(){
function openTo(id){var e=id&&document.getElementById(id);
 for(var p=e;p;p=p.parentElement){if(p.tagName==='DETAILS'){p.open=true;}}
 if(!e){return;}
 var t=e.closest('table.paper'),c=t&&t.caption,r=e.getBoundingClientRect();
 if(c){var top=c.getBoundingClientRect().top;
  if(r.bottom-top<window.innerHeight-16){window.scrollBy(0,top-8);return;}}
 e.scrollIntoView();}
function hash(){openTo(decodeURIComponent(location.hash.slice(1)));}
window.addEventListener('hashchange',hash);
window.addEventListener('load',hash);
window.addEventListener('beforeprint',function(){
 document.querySelectorAll('details').forEach(function(d){d.open=true;});});
function filter(){var v=document.getElementById('mlfs-verdict').value;
 var t=document.getElementById('mlfs-text').value.toLowerCase();
 document.querySelectorAll('table.claims > tbody > tr').forEach(function(r){
  var ok=(!v||r.dataset.robust===v)&&(!t||r.textContent.toLowerCase().indexOf(t)>=0);
  r.style.display=ok?'':'none';});}
document.addEventListener('DOMContentLoaded',function(){
 var v=document.getElementById('mlfs-verdict'),t=document.getElementById('mlfs-text');
 if(v){v.addEventListener('change',filter);t.addEventListener('input',filter);}
 document.querySelectorAll('table.claims th.sortable').forEach(function(h,i){
  h.addEventListener('click',function(){var b=h.closest('table').tBodies[0];
   var asc=h.dataset.asc!=='1';h.dataset.asc=asc?'1':'0';
   Array.from(b.rows).sort(function(x,y){
    var a=x.cells[h.cellIndex].textContent,c=y.cells[h.cellIndex].textContent;
    var o={numeric:true};
    return asc?a.localeCompare(c,undefined,o):c.localeCompare(a,undefined,o);
   }).forEach(function(r){b.appendChild(r);});});});
});
})();
"""
