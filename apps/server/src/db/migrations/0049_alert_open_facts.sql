CREATE TABLE "alert_open_facts" (
	"program_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"active" boolean NOT NULL,
	"total" integer NOT NULL,
	"unacknowledged" integer NOT NULL,
	"acknowledged" integer NOT NULL,
	"escalated" integer NOT NULL,
	"last_at" timestamp with time zone,
	"types" jsonb NOT NULL,
	CONSTRAINT "alert_open_facts_program_id_patient_id_pk" PRIMARY KEY("program_id","patient_id")
);
--> statement-breakpoint
CREATE TABLE "alert_open_totals" (
	"program_id" bigint NOT NULL,
	"type" text NOT NULL,
	"alerts" integer NOT NULL,
	"unacknowledged" integer NOT NULL,
	"acknowledged" integer NOT NULL,
	"escalated" integer NOT NULL,
	"patients" integer NOT NULL,
	CONSTRAINT "alert_open_totals_program_id_type_pk" PRIMARY KEY("program_id","type")
);
--> statement-breakpoint
ALTER TABLE "program_patient_counts" ADD COLUMN "active" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "alert_open_facts_triage_idx" ON "alert_open_facts" USING btree ("program_id","escalated" DESC NULLS LAST,"total" DESC NULLS LAST,"last_at" DESC NULLS LAST,"patient_id") WHERE "alert_open_facts"."total" > 0;--> statement-breakpoint
CREATE INDEX "alert_open_facts_patient_idx" ON "alert_open_facts" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "alert_snoozes_until_idx" ON "alert_snoozes" USING btree ("until");--> statement-breakpoint
CREATE INDEX "alerts_board_recent_idx" ON "alerts" USING btree ("program_id","status","last_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "alerts"."status" <> 'resolved' AND NOT "alerts"."hidden";--> statement-breakpoint
CREATE INDEX "alerts_escalated_idx" ON "alerts" USING btree ("patient_id") WHERE "alerts"."status" = 'escalated';--> statement-breakpoint
CREATE INDEX "alerts_assigned_idx" ON "alerts" USING btree ("program_id","assigned_admin_id","last_at") WHERE "alerts"."status" <> 'resolved' AND "alerts"."assigned_admin_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notes_escalated_idx" ON "notes" USING btree ("patient_id") WHERE "notes"."escalation_active" AND "notes"."deleted_at" IS NULL;--> statement-breakpoint
-- Rows are written in place by every alert change of their patient: room on each page keeps them HOT.
ALTER TABLE "alert_open_facts" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "alert_open_totals" SET (fillfactor = 50);--> statement-breakpoint
-- What one patient's row adds to its program's totals (sign -1: what it stops adding).
CREATE FUNCTION alert_open_contribution(
  p_program_id bigint, p_active boolean, p_total int, p_unacknowledged int, p_acknowledged int, p_escalated int,
  p_types jsonb, p_sign int
) RETURNS TABLE (program_id bigint, type text, alerts int, unacknowledged int, acknowledged int, escalated int, patients int)
LANGUAGE sql IMMUTABLE AS $$
  SELECT $1, t.key, $8 * (t.value->>0)::int, $8 * (t.value->>1)::int, $8 * (t.value->>2)::int,
         $8 * (t.value->>3)::int, $8
  FROM jsonb_each($7) t
  UNION ALL
  SELECT $1, '*', $8 * $3, $8 * $4, $8 * $5, $8 * $6, CASE WHEN $3 > 0 THEN $8 ELSE 0 END
  UNION ALL
  SELECT $1, '*active', 0, 0, 0, 0, CASE WHEN $3 > 0 AND $2 THEN $8 ELSE 0 END
$$;--> statement-breakpoint
-- Recounts the rows of the given (program, patient) keys from `alerts` and adds the difference to the
-- totals. The rows are locked first, in key order, so that two writers of one patient's alerts take turns;
-- each statement of this (volatile) function reads with a fresh snapshot, so the second writer recounts
-- after the first one's commit and the totals only ever receive exact differences.
CREATE FUNCTION refresh_alert_open_facts(keys jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  IF keys IS NULL OR jsonb_array_length(keys) = 0 THEN RETURN; END IF;
  INSERT INTO alert_open_facts AS f (program_id, patient_id, active, total, unacknowledged, acknowledged, escalated, last_at, types)
  SELECT (k->>0)::bigint, (k->>1)::bigint, false, 0, 0, 0, 0, NULL, '{}'::jsonb
  FROM jsonb_array_elements(keys) k ORDER BY 1, 2
  ON CONFLICT DO NOTHING;

  SELECT coalesce(jsonb_agg(c), '[]') INTO d FROM (
    SELECT c.* FROM (
      SELECT f.* FROM alert_open_facts f
      WHERE (f.program_id, f.patient_id) IN (SELECT (k->>0)::bigint, (k->>1)::bigint FROM jsonb_array_elements(keys) k)
      ORDER BY f.program_id, f.patient_id FOR UPDATE
    ) l, alert_open_contribution(l.program_id, l.active, l.total, l.unacknowledged, l.acknowledged, l.escalated, l.types, -1) c) c;

  WITH k AS (
    SELECT DISTINCT (k->>0)::bigint AS program_id, (k->>1)::bigint AS patient_id FROM jsonb_array_elements(keys) k
  ), fresh AS (
    SELECT k.program_id, k.patient_id, coalesce(p.active, false) AS active,
           coalesce(sum(t.n), 0)::int AS total, coalesce(sum(t.o), 0)::int AS unacknowledged,
           coalesce(sum(t.a), 0)::int AS acknowledged, coalesce(sum(t.e), 0)::int AS escalated,
           max(t.last_at) AS last_at,
           coalesce(jsonb_object_agg(t.type, jsonb_build_array(t.n, t.o, t.a, t.e)) FILTER (WHERE t.type IS NOT NULL), '{}') AS types
    FROM k
    LEFT JOIN patients p ON p.id = k.patient_id
    LEFT JOIN LATERAL (
      SELECT a.type, count(*)::int AS n, count(*) FILTER (WHERE a.status = 'open')::int AS o,
             count(*) FILTER (WHERE a.status = 'acknowledged')::int AS a,
             count(*) FILTER (WHERE a.status = 'escalated')::int AS e, max(a.last_at) AS last_at
      FROM alerts a
      WHERE a.patient_id = k.patient_id AND a.program_id = k.program_id AND a.status <> 'resolved' AND NOT a.hidden
      GROUP BY a.type
    ) t ON true
    GROUP BY k.program_id, k.patient_id, p.active
  ), updated AS (
    UPDATE alert_open_facts f
    SET active = fresh.active, total = fresh.total, unacknowledged = fresh.unacknowledged,
        acknowledged = fresh.acknowledged, escalated = fresh.escalated, last_at = fresh.last_at, types = fresh.types
    FROM fresh WHERE f.program_id = fresh.program_id AND f.patient_id = fresh.patient_id
    RETURNING f.*
  )
  SELECT d || coalesce(jsonb_agg(c), '[]') INTO d
  FROM updated u,
       alert_open_contribution(u.program_id, u.active, u.total, u.unacknowledged, u.acknowledged, u.escalated, u.types, 1) c;

  INSERT INTO alert_open_totals AS t (program_id, type, alerts, unacknowledged, acknowledged, escalated, patients)
  SELECT program_id, type, alerts, unacknowledged, acknowledged, escalated, patients FROM (
    SELECT (c->>'program_id')::bigint AS program_id, c->>'type' AS type,
           sum((c->>'alerts')::int)::int AS alerts, sum((c->>'unacknowledged')::int)::int AS unacknowledged,
           sum((c->>'acknowledged')::int)::int AS acknowledged, sum((c->>'escalated')::int)::int AS escalated,
           sum((c->>'patients')::int)::int AS patients
    FROM jsonb_array_elements(d) c GROUP BY 1, 2
  ) x
  WHERE alerts <> 0 OR unacknowledged <> 0 OR acknowledged <> 0 OR escalated <> 0 OR patients <> 0
  ORDER BY program_id, type
  ON CONFLICT (program_id, type) DO UPDATE SET
    alerts = t.alerts + EXCLUDED.alerts, unacknowledged = t.unacknowledged + EXCLUDED.unacknowledged,
    acknowledged = t.acknowledged + EXCLUDED.acknowledged, escalated = t.escalated + EXCLUDED.escalated,
    patients = t.patients + EXCLUDED.patients;

  -- A deleted patient's row goes with them (no other writer can touch a patient who is gone).
  DELETE FROM alert_open_facts f
  WHERE (f.program_id, f.patient_id) IN (SELECT (k->>0)::bigint, (k->>1)::bigint FROM jsonb_array_elements(keys) k)
    AND f.total = 0 AND NOT EXISTS (SELECT 1 FROM patients p WHERE p.id = f.patient_id);
END $$;--> statement-breakpoint
CREATE FUNCTION alert_open_facts_of_alerts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE keys jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(DISTINCT jsonb_build_array(program_id, patient_id)) INTO keys FROM new_rows
    WHERE status <> 'resolved' AND NOT hidden;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(DISTINCT jsonb_build_array(program_id, patient_id)) INTO keys FROM old_rows
    WHERE status <> 'resolved' AND NOT hidden;
  ELSE
    -- Only changes the counts can see: an update of an alert's occurrences alone still moves `last_at`.
    SELECT jsonb_agg(DISTINCT k) INTO keys FROM (
      SELECT jsonb_build_array(o.program_id, o.patient_id) AS k
      FROM old_rows o JOIN new_rows w ON w.id = o.id
      WHERE (o.status <> 'resolved' AND NOT o.hidden OR w.status <> 'resolved' AND NOT w.hidden)
        AND (o.status, o.hidden, o.last_at, o.type, o.program_id, o.patient_id)
            IS DISTINCT FROM (w.status, w.hidden, w.last_at, w.type, w.program_id, w.patient_id)
      UNION ALL
      SELECT jsonb_build_array(w.program_id, w.patient_id)
      FROM old_rows o JOIN new_rows w ON w.id = o.id
      WHERE (o.program_id, o.patient_id) IS DISTINCT FROM (w.program_id, w.patient_id)
        AND w.status <> 'resolved' AND NOT w.hidden
    ) x;
  END IF;
  PERFORM refresh_alert_open_facts(keys);
  RETURN NULL;
END $$;--> statement-breakpoint
-- A patient made active or inactive moves between the "active patients with alerts" counts.
CREATE FUNCTION alert_open_facts_of_patients() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE keys jsonb;
BEGIN
  SELECT jsonb_agg(jsonb_build_array(f.program_id, f.patient_id)) INTO keys
  FROM old_rows o JOIN new_rows w ON w.id = o.id JOIN alert_open_facts f ON f.patient_id = w.id
  WHERE o.active IS DISTINCT FROM w.active;
  PERFORM refresh_alert_open_facts(keys);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER alerts_open_facts_insert AFTER INSERT ON alerts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_open_facts_of_alerts();--> statement-breakpoint
CREATE TRIGGER alerts_open_facts_update AFTER UPDATE ON alerts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_open_facts_of_alerts();--> statement-breakpoint
CREATE TRIGGER alerts_open_facts_delete AFTER DELETE ON alerts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_open_facts_of_alerts();--> statement-breakpoint
CREATE TRIGGER patients_alert_open_facts AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION alert_open_facts_of_patients();--> statement-breakpoint
-- Patients per program (migration 0002, version since 0045) now also counts the active ones.
CREATE OR REPLACE FUNCTION maintain_program_patient_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE program_patient_counts c SET patients = c.patients - d.n, active = c.active - d.a, version = c.version + 1
    FROM (SELECT program_id, count(*) AS n, count(*) FILTER (WHERE active) AS a FROM old_rows GROUP BY program_id) d
    WHERE c.program_id = d.program_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO program_patient_counts AS c (program_id, patients, active, version)
    SELECT program_id, count(*), count(*) FILTER (WHERE active), 1 FROM new_rows GROUP BY program_id
    ON CONFLICT (program_id) DO UPDATE
    SET patients = c.patients + EXCLUDED.patients, active = c.active + EXCLUDED.active, version = c.version + 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- What is already there.
UPDATE program_patient_counts c SET active = x.n
FROM (SELECT program_id, count(*) AS n FROM patients WHERE active GROUP BY program_id) x
WHERE c.program_id = x.program_id;--> statement-breakpoint
INSERT INTO alert_open_facts (program_id, patient_id, active, total, unacknowledged, acknowledged, escalated, last_at, types)
SELECT t.program_id, t.patient_id, coalesce(p.active, false), sum(t.n)::int, sum(t.o)::int, sum(t.a)::int, sum(t.e)::int,
       max(t.last_at), jsonb_object_agg(t.type, jsonb_build_array(t.n, t.o, t.a, t.e))
FROM (
  SELECT program_id, patient_id, type, count(*)::int AS n, count(*) FILTER (WHERE status = 'open')::int AS o,
         count(*) FILTER (WHERE status = 'acknowledged')::int AS a, count(*) FILTER (WHERE status = 'escalated')::int AS e,
         max(last_at) AS last_at
  FROM alerts WHERE status <> 'resolved' AND NOT hidden GROUP BY 1, 2, 3
) t LEFT JOIN patients p ON p.id = t.patient_id
GROUP BY t.program_id, t.patient_id, p.active;--> statement-breakpoint
INSERT INTO alert_open_totals (program_id, type, alerts, unacknowledged, acknowledged, escalated, patients)
SELECT c.program_id, c.type, sum(c.alerts)::int, sum(c.unacknowledged)::int, sum(c.acknowledged)::int,
       sum(c.escalated)::int, sum(c.patients)::int
FROM alert_open_facts f,
     alert_open_contribution(f.program_id, f.active, f.total, f.unacknowledged, f.acknowledged, f.escalated, f.types, 1) c
GROUP BY 1, 2;
