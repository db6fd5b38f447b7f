'use strict';
function cellKey(td){const v=td.getAttribute('data-sort');const t=v===null?td.textContent.trim():v;
  const n=parseFloat(t);return (t!==''&&!isNaN(n)&&isFinite(n)&&/^[-+]?[0-9.eE+-]+$/.test(t))?n:t.toLowerCase();}
function sortTable(th){const table=th.closest('table');const idx=Array.prototype.indexOf.call(th.parentNode.children,th);
  const asc=th.getAttribute('aria-sort')!=='ascending';
  table.querySelectorAll('th').forEach(h=>h.removeAttribute('aria-sort'));
  th.setAttribute('aria-sort',asc?'ascending':'descending');
  const body=table.tBodies[0];const rows=Array.from(body.rows);
  rows.sort((a,b)=>{const x=cellKey(a.cells[idx]),y=cellKey(b.cells[idx]);
    if(typeof x==='number'&&typeof y==='number')return asc?x-y:y-x;
    if(typeof x==='number')return -1; if(typeof y==='number')return 1;
    return asc?String(x).localeCompare(String(y)):String(y).localeCompare(String(x));});
  rows.forEach(r=>body.appendChild(r));}
document.querySelectorAll('table.sortable th').forEach(th=>{const b=document.createElement('button');
  b.type='button';b.textContent=th.textContent;th.textContent='';th.appendChild(b);
  b.addEventListener('click',()=>sortTable(th));});
function applyFilters(){const q=(document.getElementById('search')||{}).value||'';
  const f={};document.querySelectorAll('select[data-filter]').forEach(s=>{f[s.getAttribute('data-filter')]=s.value;});
  let shown=0;document.querySelectorAll('#papers tbody tr').forEach(tr=>{let ok=true;
    for(const k in f){if(!f[k])continue;const have=(tr.getAttribute('data-'+k)||'').split(' ');
      if(have.indexOf(f[k])<0)ok=false;}
    if(q&&tr.textContent.toLowerCase().indexOf(q.toLowerCase())<0)ok=false;
    tr.hidden=!ok;if(ok)shown++;});
  const c=document.getElementById('count');if(c)c.textContent=shown+' shown';}
document.querySelectorAll('select[data-filter],#search').forEach(el=>el.addEventListener('input',applyFilters));
if(document.getElementById('papers'))applyFilters();
