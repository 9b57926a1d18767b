CREATE TABLE "dashboard_fact_buckets" (
	"program_id" bigint NOT NULL,
	"fact" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "dashboard_fact_buckets_program_id_fact_bucket_pk" PRIMARY KEY("program_id","fact","bucket")
);
--> statement-breakpoint
-- The current quarter hour's rows are updated by every batch of readings: room on each page keeps those
-- updates in place (HOT).
ALTER TABLE "dashboard_fact_buckets" SET (fillfactor = 70);
--> statement-breakpoint
-- The quarter hour a moment falls in (every time zone's midnight is one of them).
CREATE FUNCTION dashboard_bucket(at timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('15 minutes', at, '2000-01-01 00:00:00+00')
$$;
--> statement-breakpoint
-- Adds signed counts (`[{p, f, b, n}]`, already per bucket) in key order: two writers lock the rows they
-- share in the same order.
CREATE FUNCTION add_dashboard_facts(deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO dashboard_fact_buckets AS b (program_id, fact, bucket, n)
  SELECT program_id, fact, bucket, n FROM (
    SELECT (d->>'p')::bigint AS program_id, d->>'f' AS fact, (d->>'b')::timestamptz AS bucket,
           sum((d->>'n')::int)::int AS n
    FROM jsonb_array_elements(deltas) d GROUP BY 1, 2, 3
  ) x WHERE n <> 0
  ORDER BY program_id, fact, bucket
  ON CONFLICT (program_id, fact, bucket) DO UPDATE SET n = b.n + EXCLUDED.n
$$;
--> statement-breakpoint
-- Alerts: `alerts` on the day one first fired, `resolved` on the day it was resolved.
CREATE FUNCTION dashboard_alerts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb := '[]';
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    d := d || coalesce((SELECT jsonb_agg(x) FROM (
      SELECT p, f, b, count(*) AS n FROM (
        SELECT program_id AS p, 'alerts' AS f, dashboard_bucket(first_at) AS b FROM new_rows
        UNION ALL
        SELECT program_id, 'resolved', dashboard_bucket(resolved_at) FROM new_rows WHERE resolved_at IS NOT NULL
      ) y GROUP BY 1, 2, 3) x), '[]');
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    d := d || coalesce((SELECT jsonb_agg(x) FROM (
      SELECT p, f, b, -count(*) AS n FROM (
        SELECT program_id AS p, 'alerts' AS f, dashboard_bucket(first_at) AS b FROM old_rows
        UNION ALL
        SELECT program_id, 'resolved', dashboard_bucket(resolved_at) FROM old_rows WHERE resolved_at IS NOT NULL
      ) y GROUP BY 1, 2, 3) x), '[]');
  END IF;
  PERFORM add_dashboard_facts(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION dashboard_readings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb := '[]';
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    d := d || coalesce((SELECT jsonb_agg(x) FROM (
      SELECT program_id AS p, 'readings' AS f, dashboard_bucket(measured_at) AS b, count(*) AS n
      FROM new_rows GROUP BY 1, 3) x), '[]');
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    d := d || coalesce((SELECT jsonb_agg(x) FROM (
      SELECT program_id AS p, 'readings' AS f, dashboard_bucket(measured_at) AS b, -count(*) AS n
      FROM old_rows GROUP BY 1, 3) x), '[]');
  END IF;
  PERFORM add_dashboard_facts(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Doses taken count in the program the patient is in now: a patient who moves takes their doses along
-- (dashboard_patients below); a deleted patient's doses leave before the cascade (dashboard_patient_gone).
CREATE FUNCTION dashboard_doses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb := '[]';
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    d := d || coalesce((SELECT jsonb_agg(x) FROM (
      SELECT pt.program_id AS p, 'doses' AS f, dashboard_bucket(u.taken_at) AS b, count(*) AS n
      FROM new_rows u JOIN patients pt ON pt.id = u.patient_id WHERE u.kind = 'taken' GROUP BY 1, 3) x), '[]');
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    d := d || coalesce((SELECT jsonb_agg(x) FROM (
      SELECT pt.program_id AS p, 'doses' AS f, dashboard_bucket(u.taken_at) AS b, -count(*) AS n
      FROM old_rows u JOIN patients pt ON pt.id = u.patient_id WHERE u.kind = 'taken' GROUP BY 1, 3) x), '[]');
  END IF;
  PERFORM add_dashboard_facts(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Enrolments: a patient on the day they were created, in their program. A patient who moves to another
-- program takes their enrolment and their doses taken along.
CREATE FUNCTION dashboard_patients() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb := '[]';
BEGIN
  IF TG_OP = 'INSERT' THEN
    d := coalesce((SELECT jsonb_agg(x) FROM (
      SELECT program_id AS p, 'enrolments' AS f, dashboard_bucket(created_at) AS b, count(*) AS n
      FROM new_rows GROUP BY 1, 3) x), '[]');
  ELSIF TG_OP = 'DELETE' THEN
    d := coalesce((SELECT jsonb_agg(x) FROM (
      SELECT program_id AS p, 'enrolments' AS f, dashboard_bucket(created_at) AS b, -count(*) AS n
      FROM old_rows GROUP BY 1, 3) x), '[]');
  ELSE
    d := coalesce((SELECT jsonb_agg(x) FROM (
      WITH changed AS (
        SELECT o.id, o.program_id AS old_p, w.program_id AS new_p, o.created_at AS old_at, w.created_at AS new_at
        FROM old_rows o JOIN new_rows w ON w.id = o.id
        WHERE o.program_id <> w.program_id OR o.created_at <> w.created_at
      ), moves AS (
        SELECT id, old_p AS p, -1 AS sign FROM changed WHERE old_p <> new_p
        UNION ALL SELECT id, new_p, 1 FROM changed WHERE old_p <> new_p
      )
      SELECT p, f, b, sum(n) AS n FROM (
        SELECT old_p AS p, 'enrolments' AS f, dashboard_bucket(old_at) AS b, -1 AS n FROM changed
        UNION ALL SELECT new_p, 'enrolments', dashboard_bucket(new_at), 1 FROM changed
        UNION ALL
        SELECT m.p, 'doses', dashboard_bucket(u.taken_at), m.sign
        FROM moves m JOIN medication_usages u ON u.patient_id = m.id AND u.kind = 'taken'
      ) y GROUP BY 1, 2, 3) x), '[]');
  END IF;
  PERFORM add_dashboard_facts(d);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION dashboard_patient_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_dashboard_facts(coalesce((SELECT jsonb_agg(x) FROM (
    SELECT OLD.program_id AS p, 'doses' AS f, dashboard_bucket(taken_at) AS b, -count(*) AS n
    FROM medication_usages WHERE patient_id = OLD.id AND kind = 'taken' GROUP BY 3) x), '[]'));
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER alerts_dashboard_insert AFTER INSERT ON alerts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_alerts();--> statement-breakpoint
CREATE TRIGGER alerts_dashboard_update AFTER UPDATE ON alerts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_alerts();--> statement-breakpoint
CREATE TRIGGER alerts_dashboard_delete AFTER DELETE ON alerts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_alerts();--> statement-breakpoint
CREATE TRIGGER measurements_dashboard_insert AFTER INSERT ON measurements
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_readings();--> statement-breakpoint
CREATE TRIGGER measurements_dashboard_update AFTER UPDATE ON measurements
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_readings();--> statement-breakpoint
CREATE TRIGGER measurements_dashboard_delete AFTER DELETE ON measurements
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_readings();--> statement-breakpoint
CREATE TRIGGER medication_usages_dashboard_insert AFTER INSERT ON medication_usages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_doses();--> statement-breakpoint
CREATE TRIGGER medication_usages_dashboard_update AFTER UPDATE ON medication_usages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_doses();--> statement-breakpoint
CREATE TRIGGER medication_usages_dashboard_delete AFTER DELETE ON medication_usages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_doses();--> statement-breakpoint
CREATE TRIGGER patients_dashboard_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_patients();--> statement-breakpoint
CREATE TRIGGER patients_dashboard_update AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_patients();--> statement-breakpoint
CREATE TRIGGER patients_dashboard_delete AFTER DELETE ON patients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION dashboard_patients();--> statement-breakpoint
CREATE TRIGGER patients_dashboard_gone BEFORE DELETE ON patients
  FOR EACH ROW EXECUTE FUNCTION dashboard_patient_gone();--> statement-breakpoint
-- What is already there.
INSERT INTO dashboard_fact_buckets (program_id, fact, bucket, n)
SELECT program_id, fact, dashboard_bucket(at), count(*)::int FROM (
  SELECT program_id, 'alerts' AS fact, first_at AS at FROM alerts
  UNION ALL SELECT program_id, 'resolved', resolved_at FROM alerts WHERE resolved_at IS NOT NULL
  UNION ALL SELECT program_id, 'readings', measured_at FROM measurements
  UNION ALL SELECT pt.program_id, 'doses', u.taken_at FROM medication_usages u JOIN patients pt ON pt.id = u.patient_id WHERE u.kind = 'taken'
  UNION ALL SELECT program_id, 'enrolments', created_at FROM patients
) x GROUP BY 1, 2, 3;
