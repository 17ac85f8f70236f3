-- Blogs (src/data/blog-posts.ts, src/operations/blogs/). Each workspace hosts its blog at
-- /blog/{workspace slug}: the slug is derived from the workspace's name when the row is inserted (a trigger,
-- so every way of creating a workspace gets one), with a numeric suffix when another workspace has it.
alter table workspaces add column slug text;

create function workspace_slug_base(name text) returns text language sql immutable as $$
  select coalesce(nullif(left(trim(both '-' from regexp_replace(lower(coalesce(name, '')), '[^a-z0-9]+', '-', 'g')), 48), ''), 'blog')
$$;

create function workspace_slug_free(base text) returns text language plpgsql as $$
declare
  candidate text := base;
  n integer := 1;
begin
  while exists (select 1 from workspaces where slug = candidate) loop
    n := n + 1;
    candidate := base || '-' || n;
  end loop;
  return candidate;
end
$$;

create function workspaces_set_slug() returns trigger language plpgsql as $$
begin
  if new.slug is null then
    new.slug := workspace_slug_free(trim(both '-' from left(workspace_slug_base(new.name), 48)));
  end if;
  return new;
end
$$;

do $$
declare
  w record;
begin
  for w in select id, name from workspaces where slug is null order by created_at, id loop
    update workspaces set slug = workspace_slug_free(workspace_slug_base(w.name)) where id = w.id;
  end loop;
end
$$;

alter table workspaces alter column slug set not null;
alter table workspaces add constraint workspaces_slug_key unique (slug);
create trigger workspaces_slug before insert on workspaces for each row execute function workspaces_set_slug();

-- A post moves draft -> scheduled (publish_at in the future) -> published, or draft -> published; unpublishing
-- returns it to draft. Its slug is unique in its workspace; `sources` names the knowledge chunks it drew on.
create table blog_posts (
  id text primary key,
  workspace_id text not null references workspaces (id),
  slug text not null,
  title text not null,
  meta_description text not null,
  outline jsonb not null,
  body_markdown text not null,
  sources jsonb not null default '[]',
  status text not null check (status in ('draft', 'scheduled', 'published')),
  publish_at timestamptz,
  published_at timestamptz,
  agent_run_id text,
  created_by text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (workspace_id, slug)
);
create index blog_posts_workspace_created on blog_posts (workspace_id, created_at desc, id desc);
create index blog_posts_published on blog_posts (workspace_id, published_at desc, id desc) where status = 'published';
create index blog_posts_due on blog_posts (publish_at) where status = 'scheduled';
