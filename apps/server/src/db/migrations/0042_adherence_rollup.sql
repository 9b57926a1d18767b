CREATE TABLE "adherence_days" (
	"patient_id" bigint NOT NULL,
	"day" date NOT NULL,
	"date" date NOT NULL,
	"program_id" bigint NOT NULL,
	"due" integer DEFAULT 0 NOT NULL,
	"on_time" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"missed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"partial" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"extra" integer DEFAULT 0 NOT NULL,
	"cum_due" integer DEFAULT 0 NOT NULL,
	"cum_taken" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "adherence_days_patient_id_day_date_pk" PRIMARY KEY("patient_id","day","date")
);
--> statement-breakpoint
CREATE TABLE "adherence_dirty" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "adherence_dirty_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"from_day" date NOT NULL
);
--> statement-breakpoint
CREATE TABLE "adherence_pending" (
	"patient_id" bigint NOT NULL,
	"day" date NOT NULL,
	"date" date NOT NULL,
	"closes_at" timestamp with time zone NOT NULL,
	"becomes" text NOT NULL,
	"program_id" bigint NOT NULL,
	"doses" integer NOT NULL,
	CONSTRAINT "adherence_pending_patient_id_day_date_closes_at_becomes_pk" PRIMARY KEY("patient_id","day","date","closes_at","becomes"),
	CONSTRAINT "adherence_pending_becomes_check" CHECK ("adherence_pending"."becomes" IN ('missed', 'partial'))
);
--> statement-breakpoint
CREATE TABLE "adherence_program_days" (
	"program_id" bigint NOT NULL,
	"day" date NOT NULL,
	"date" date NOT NULL,
	"due" integer DEFAULT 0 NOT NULL,
	"on_time" integer DEFAULT 0 NOT NULL,
	"late" integer DEFAULT 0 NOT NULL,
	"missed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"partial" integer DEFAULT 0 NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"extra" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "adherence_program_days_program_id_day_date_pk" PRIMARY KEY("program_id","day","date")
);
--> statement-breakpoint
CREATE TABLE "adherence_rollup_state" (
	"patient_id" bigint PRIMARY KEY NOT NULL,
	"program_id" bigint NOT NULL,
	"through" date NOT NULL,
	"on_time_minutes" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "adherence_days" ADD CONSTRAINT "adherence_days_patient_id_adherence_rollup_state_patient_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."adherence_rollup_state"("patient_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adherence_pending" ADD CONSTRAINT "adherence_pending_patient_id_adherence_rollup_state_patient_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."adherence_rollup_state"("patient_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "adherence_rollup_state" ADD CONSTRAINT "adherence_rollup_state_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "adherence_days_program_day_idx" ON "adherence_days" USING btree ("program_id","day","date","patient_id","cum_due","cum_taken");--> statement-breakpoint
CREATE INDEX "adherence_dirty_patient_idx" ON "adherence_dirty" USING btree ("patient_id","from_day");--> statement-breakpoint
CREATE INDEX "adherence_pending_closes_idx" ON "adherence_pending" USING btree ("closes_at");--> statement-breakpoint
CREATE INDEX "adherence_pending_program_idx" ON "adherence_pending" USING btree ("program_id","closes_at");--> statement-breakpoint
CREATE INDEX "adherence_rollup_state_program_idx" ON "adherence_rollup_state" USING btree ("program_id","through");
--> statement-breakpoint
-- The rollup's invalidations (ADR 046): every write that can change what the engine decides for a patient
-- appends the first local date it can change, on the safe side: a dose event decides doses scheduled up to
-- a day before it (a window closes at most 24 h after its dose), and no zone is more than 14 h from UTC,
-- so its UTC date minus two days. '0001-01-01' means every day.
CREATE FUNCTION adherence_dirty_from_usages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO adherence_dirty (patient_id, from_day)
    SELECT patient_id, min(taken_at AT TIME ZONE 'UTC')::date - 2 FROM new_rows GROUP BY patient_id;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO adherence_dirty (patient_id, from_day)
    SELECT patient_id, min(taken_at AT TIME ZONE 'UTC')::date - 2 FROM old_rows GROUP BY patient_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER medication_usages_rollup_insert AFTER INSERT ON medication_usages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_usages();
--> statement-breakpoint
CREATE TRIGGER medication_usages_rollup_update AFTER UPDATE ON medication_usages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_usages();
--> statement-breakpoint
CREATE TRIGGER medication_usages_rollup_delete AFTER DELETE ON medication_usages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_usages();
--> statement-breakpoint
-- A regimen changes the doses from its start (its schedule, or the start itself, changed) or from its end
-- (only the end or the completion changed): the engine reads the earlier of end_at and completed_at. Edits
-- of anything else (name, device, status, billing) change no dose.
CREATE FUNCTION adherence_dirty_from_regimens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO adherence_dirty (patient_id, from_day)
    SELECT patient_id, min(scheduled_at AT TIME ZONE 'UTC')::date - 2 FROM new_rows GROUP BY patient_id;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO adherence_dirty (patient_id, from_day)
    SELECT patient_id, min(scheduled_at AT TIME ZONE 'UTC')::date - 2 FROM old_rows GROUP BY patient_id;
  ELSE
    INSERT INTO adherence_dirty (patient_id, from_day)
    SELECT c.patient_id, min(c.at AT TIME ZONE 'UTC')::date - 2
    FROM (
      SELECT p.patient_id,
        CASE WHEN n.patient_id IS DISTINCT FROM o.patient_id OR n.repeat IS DISTINCT FROM o.repeat
               OR n.interval IS DISTINCT FROM o.interval OR n.times IS DISTINCT FROM o.times
               OR n.time_cascade IS DISTINCT FROM o.time_cascade OR n.lockout_time IS DISTINCT FROM o.lockout_time
               OR n.unlock_before IS DISTINCT FROM o.unlock_before OR n.multi_pod IS DISTINCT FROM o.multi_pod
               OR n.num IS DISTINCT FROM o.num OR n.scheduled_at IS DISTINCT FROM o.scheduled_at
             THEN least(n.scheduled_at, o.scheduled_at)
             WHEN least(n.end_at, n.completed_at) IS DISTINCT FROM least(o.end_at, o.completed_at)
             THEN least(least(n.end_at, n.completed_at), least(o.end_at, o.completed_at))
        END AS at
      FROM new_rows n JOIN old_rows o ON o.id = n.id
      CROSS JOIN LATERAL (VALUES (n.patient_id), (o.patient_id)) AS p(patient_id)
    ) c
    WHERE c.at IS NOT NULL
    GROUP BY c.patient_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER regimens_rollup_insert AFTER INSERT ON regimens
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_regimens();
--> statement-breakpoint
CREATE TRIGGER regimens_rollup_update AFTER UPDATE ON regimens
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_regimens();
--> statement-breakpoint
CREATE TRIGGER regimens_rollup_delete AFTER DELETE ON regimens
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_regimens();
--> statement-breakpoint
-- A new patient is rolled up from scratch; so is one whose zone or program changed, whose rows are dropped
-- at once (they count in their old program until then).
CREATE FUNCTION adherence_dirty_from_patients() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO adherence_dirty (patient_id, from_day) SELECT id, DATE '0001-01-01' FROM new_rows;
  ELSE
    WITH moved AS (
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.time_zone IS DISTINCT FROM o.time_zone OR n.program_id IS DISTINCT FROM o.program_id
    ), dropped AS (
      DELETE FROM adherence_rollup_state s USING moved m WHERE s.patient_id = m.id
    )
    INSERT INTO adherence_dirty (patient_id, from_day) SELECT id, DATE '0001-01-01' FROM moved;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER patients_rollup_insert AFTER INSERT ON patients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_patients();
--> statement-breakpoint
CREATE TRIGGER patients_rollup_update AFTER UPDATE ON patients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_dirty_from_patients();
--> statement-breakpoint
-- adherence_program_days = adherence_days summed per program, day and date, statement by statement (in
-- key order, so that two writers lock its rows in the same order).
CREATE FUNCTION adherence_program_days_maintain() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO adherence_program_days AS t (program_id, day, date, due, on_time, late, missed, skipped, partial, pending, extra)
    SELECT program_id, day, date, sum(due), sum(on_time), sum(late), sum(missed), sum(skipped), sum(partial),
           sum(pending), sum(extra)
    FROM (SELECT program_id, day, date, due, on_time, late, missed, skipped, partial, pending, extra FROM new_rows) d
    GROUP BY program_id, day, date
    ORDER BY program_id, day, date
    ON CONFLICT (program_id, day, date) DO UPDATE SET
      due = t.due + EXCLUDED.due, on_time = t.on_time + EXCLUDED.on_time, late = t.late + EXCLUDED.late,
      missed = t.missed + EXCLUDED.missed, skipped = t.skipped + EXCLUDED.skipped,
      partial = t.partial + EXCLUDED.partial, pending = t.pending + EXCLUDED.pending,
      extra = t.extra + EXCLUDED.extra;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO adherence_program_days AS t (program_id, day, date, due, on_time, late, missed, skipped, partial, pending, extra)
    SELECT program_id, day, date, sum(due), sum(on_time), sum(late), sum(missed), sum(skipped), sum(partial),
           sum(pending), sum(extra)
    FROM (SELECT program_id, day, date, -due AS due, -on_time AS on_time, -late AS late, -missed AS missed, -skipped AS skipped, -partial AS partial, -pending AS pending, -extra AS extra FROM old_rows) d
    GROUP BY program_id, day, date
    ORDER BY program_id, day, date
    ON CONFLICT (program_id, day, date) DO UPDATE SET
      due = t.due + EXCLUDED.due, on_time = t.on_time + EXCLUDED.on_time, late = t.late + EXCLUDED.late,
      missed = t.missed + EXCLUDED.missed, skipped = t.skipped + EXCLUDED.skipped,
      partial = t.partial + EXCLUDED.partial, pending = t.pending + EXCLUDED.pending,
      extra = t.extra + EXCLUDED.extra;
  ELSE
    INSERT INTO adherence_program_days AS t (program_id, day, date, due, on_time, late, missed, skipped, partial, pending, extra)
    SELECT program_id, day, date, sum(due), sum(on_time), sum(late), sum(missed), sum(skipped), sum(partial),
           sum(pending), sum(extra)
    FROM (SELECT program_id, day, date, due, on_time, late, missed, skipped, partial, pending, extra FROM new_rows UNION ALL SELECT program_id, day, date, -due AS due, -on_time AS on_time, -late AS late, -missed AS missed, -skipped AS skipped, -partial AS partial, -pending AS pending, -extra AS extra FROM old_rows) d
    GROUP BY program_id, day, date
    ORDER BY program_id, day, date
    ON CONFLICT (program_id, day, date) DO UPDATE SET
      due = t.due + EXCLUDED.due, on_time = t.on_time + EXCLUDED.on_time, late = t.late + EXCLUDED.late,
      missed = t.missed + EXCLUDED.missed, skipped = t.skipped + EXCLUDED.skipped,
      partial = t.partial + EXCLUDED.partial, pending = t.pending + EXCLUDED.pending,
      extra = t.extra + EXCLUDED.extra;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER adherence_days_program_insert AFTER INSERT ON adherence_days
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_program_days_maintain();
--> statement-breakpoint
CREATE TRIGGER adherence_days_program_update AFTER UPDATE ON adherence_days
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_program_days_maintain();
--> statement-breakpoint
CREATE TRIGGER adherence_days_program_delete AFTER DELETE ON adherence_days
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION adherence_program_days_maintain();
--> statement-breakpoint
-- Every patient there already is gets rolled up by the job from scratch.
INSERT INTO adherence_dirty (patient_id, from_day) SELECT id, DATE '0001-01-01' FROM patients;
