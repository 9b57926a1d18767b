-- The program's status log (ADR 047): each change carries the patient's home program, the status before it, how it
-- was made and, when there was one, its reason. Existing rows are completed from the patients and the rows before
-- them: a patient's first row written with the patient (same transaction, same time) is the enrolment.
ALTER TABLE "patient_status_history" ADD COLUMN "program_id" bigint;--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD COLUMN "previous_status" text;--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD COLUMN "reason" text;--> statement-breakpoint
UPDATE "patient_status_history" h
SET program_id = p.program_id,
  previous_status = prev.previous_status,
  source = CASE WHEN prev.previous_status IS NULL AND h.created_at = p.created_at THEN 'enrolment' ELSE 'single' END
FROM "patients" p,
  (SELECT id, lag(status) OVER (PARTITION BY patient_id ORDER BY id) AS previous_status FROM "patient_status_history") prev
WHERE p.id = h.patient_id AND prev.id = h.id;--> statement-breakpoint
ALTER TABLE "patient_status_history" ALTER COLUMN "program_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_status_history" ALTER COLUMN "source" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD CONSTRAINT "patient_status_history_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patient_status_history_program_idx" ON "patient_status_history" USING btree ("program_id","created_at","id","status","source","admin_id");--> statement-breakpoint
CREATE INDEX "patient_status_history_admin_idx" ON "patient_status_history" USING btree ("program_id","admin_id","created_at","id");--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD CONSTRAINT "patient_status_history_source_check" CHECK ("patient_status_history"."source" IN ('enrolment', 'single', 'bulk', 'bulk_action', 'activation'));
