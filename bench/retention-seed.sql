-- Seeds a scratch database for measuring the retention run (docs/operations.md#retention):
--   psql -v tags=20000 -v old_scans=2500000 -v mid_scans=1000000 -v notifications=1000000 -v order=time -f bench/retention-seed.sql
-- on a database migrated with `npm run db:migrate`. Old scans are 396–800 days old (rolled up and deleted),
-- mid ones 31–390 days (IP hash erased, the 10% shared places erased), 100,000 recent ones untouched;
-- notifications 0–400 days old, half of them read; 2,000 conversations closed 400 days ago with 50 messages each.
-- order=time writes the scans in time order, as they arrive (old rows together at the table's start);
-- order=random scatters them over the table (the worst case: each batch touches ~5,000 pages).
\set ON_ERROR_STOP on
begin;
insert into users (id, email, password_hash, first_name, last_name)
values ('00000000-0000-4000-8000-000000000001', 'retention-bench@example.com', 'x', 'Bench', 'Owner')
on conflict do nothing;
insert into tags (code, encrypted_id, owner_id, status)
select 'RB' || lpad(g::text, 8, '0'), 'rb' || md5(g::text), '00000000-0000-4000-8000-000000000001', 'ACTIVE'
from generate_series(1, :tags) g;
commit;
create temporary table bench_tags as select row_number() over (order by id) as n, id from tags where code like 'RB%';
create index on bench_tags (n);
\echo old scans
insert into scans (tag_id, scanned_at, ip_hash, city, country, latitude, longitude, accuracy, location_shared, scan_class)
select t.id, s.at, md5(s.g::text), 'Lyon', 'FR', 45.76, 4.83,
  case when s.g % 10 = 0 then 10 end, s.g % 10 = 0, (array['REAL','BOT','PREFETCH','REPEAT','OWNER'])[1 + s.g % 5]::scan_class
from (select g, now() - interval '396 days' - random() * interval '404 days' as at from generate_series(1, :old_scans) g) s
join bench_tags t on t.n = 1 + s.g % :tags
order by case when :'order' = 'time' then s.at end;
\echo mid scans
insert into scans (tag_id, scanned_at, ip_hash, city, country, latitude, longitude, accuracy, location_shared, scan_class)
select t.id, s.at, md5(s.g::text), 'Lyon', 'FR', 45.76, 4.83,
  case when s.g % 10 = 0 then 10 end, s.g % 10 = 0, 'REAL'
from (select g, now() - interval '31 days' - random() * interval '359 days' as at from generate_series(1, :mid_scans) g) s
join bench_tags t on t.n = 1 + s.g % :tags
order by case when :'order' = 'time' then s.at end;
\echo recent scans
insert into scans (tag_id, scanned_at, ip_hash, city, country, latitude, longitude, location_shared, scan_class)
select t.id, now() - random() * interval '29 days', md5(g::text), 'Lyon', 'FR', 45.76, 4.83, false, 'REAL'
from generate_series(1, 100000) g join bench_tags t on t.n = 1 + g % :tags;
update tags set scan_count = s.n from (select tag_id, count(*) filter (where not location_shared) as n from scans group by tag_id) s where tags.id = s.tag_id;
\echo notifications
insert into notifications (user_id, type, title, body, data, created_at, read_at)
select '00000000-0000-4000-8000-000000000001', 'TAG_SCANNED', 'Scanned', 'Your tag was scanned', '{}'::jsonb, at, case when g % 2 = 0 then at + interval '1 hour' end
from (select g, now() - random() * interval '400 days' as at from generate_series(1, :notifications) g) n;
\echo conversations
insert into threads (tag_id, owner_id, token_hash, finder_email, status, created_at, updated_at, last_message_at)
select t.id, '00000000-0000-4000-8000-000000000001', md5('thread' || g), 'finder' || g || '@example.com', 'CLOSED',
  now() - interval '401 days', now() - interval '400 days', now() - interval '400 days'
from generate_series(1, 2000) g join bench_tags t on t.n = g;
insert into thread_messages (thread_id, sender, content, created_at)
select th.id, 'FINDER', 'message ' || g, now() - interval '401 days'
from threads th cross join generate_series(1, 50) g where th.token_hash like '________________________________' and th.finder_email like 'finder%@example.com';
vacuum analyze;
