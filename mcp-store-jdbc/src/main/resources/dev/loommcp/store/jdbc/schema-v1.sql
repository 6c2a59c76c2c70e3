-- loom-mcp's shared client state (mcp-store-jdbc), schema version 1, for PostgreSQL 12 or newer.
-- JdbcSchema.migrate(dataSource) applies it (idempotent: every statement is "if not exists"); a DBA may apply it by hand
-- instead. Times that decide leases come from the database (now()), never from a replica's clock.

create table if not exists mcp_schema_version (
    version    integer primary key,
    applied_at timestamptz not null default now()
);

-- OAuth token sets per principal (the empty string: none), protected resource and issuer. The set (access token,
-- refresh token, type, expiry, scope) is sealed with AES-GCM under the application's key (key_id names it); the
-- row's primary key is the associated data, so a sealed set moved to another row does not open.
create table if not exists mcp_oauth_tokens (
    principal text        not null,
    resource  text        not null,
    issuer    text        not null,
    key_id    text        not null,
    sealed    bytea       not null,
    version   bigint      not null default 1,
    saved_at  timestamptz not null default now(),
    primary key (principal, resource, issuer)
);

-- Dynamic client registrations per issuer (put if absent), sealed the same way (the client secret).
create table if not exists mcp_oauth_registrations (
    issuer   text        primary key,
    key_id   text        not null,
    sealed   bytea       not null,
    saved_at timestamptz not null default now()
);

-- Refresh leases: one row per key, fence counts the grants; lease_until null or past = free.
create table if not exists mcp_oauth_leases (
    principal   text        not null,
    resource    text        not null,
    issuer      text        not null,
    holder      text,
    fence       bigint      not null default 0,
    lease_until timestamptz,
    primary key (principal, resource, issuer)
);

-- Task records (mcp-tasks' TaskRecord) with their owner's lease; seq keeps creation order.
create table if not exists mcp_tasks (
    server_key     text        not null,
    task_id        text        not null,
    seq            bigserial,
    era            text        not null,
    tool_name      text        not null,
    created_at     text        not null,
    ttl_ms         bigint,
    last_status    text        not null,
    owner          text,
    learned_at     text,
    lease_until    timestamptz,
    fence          bigint      not null default 0,
    input_requests text,
    result         text,
    retain_until   timestamptz,
    primary key (server_key, task_id)
);
create index if not exists mcp_tasks_due on mcp_tasks (server_key, lease_until);

insert into mcp_schema_version (version) values (1) on conflict do nothing;
