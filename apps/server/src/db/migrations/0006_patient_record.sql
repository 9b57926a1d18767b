CREATE TABLE "patient_programs" (
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_programs_patient_id_program_id_pk" PRIMARY KEY("patient_id","program_id")
);
--> statement-breakpoint
CREATE TABLE "patient_status_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "patient_status_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"status" text NOT NULL,
	"admin_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "middle_name" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "mrn" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "income" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "address_line1" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "address_line2" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "zip" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "physician_id" bigint;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "consent_method" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "notification_settings" jsonb DEFAULT '{"sms": true, "email": true, "push": true, "voice": false}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "app_password_hash" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_programs" ADD CONSTRAINT "patient_programs_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_programs" ADD CONSTRAINT "patient_programs_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD CONSTRAINT "patient_status_history_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_status_history" ADD CONSTRAINT "patient_status_history_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patient_programs_program_idx" ON "patient_programs" USING btree ("program_id");--> statement-breakpoint
CREATE INDEX "patient_status_history_patient_idx" ON "patient_status_history" USING btree ("patient_id","id");--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_physician_id_admins_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "patients_program_mrn_unique" ON "patients" USING btree ("program_id",lower("mrn")) WHERE "patients"."mrn" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("subject_type","subject_id","id");--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_consent_method_check" CHECK ("patients"."consent_method" IN ('written', 'verbal', 'electronic'));--> statement-breakpoint
-- The home program is always an enrolment: existing patients, then every insert and home change.
INSERT INTO "patient_programs" ("patient_id", "program_id") SELECT "id", "program_id" FROM "patients" ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION patient_home_enrolment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO patient_programs (patient_id, program_id)
  SELECT n.id, n.program_id FROM new_rows n
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER patients_home_enrolment_insert AFTER INSERT ON "patients"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_home_enrolment();--> statement-breakpoint
CREATE TRIGGER patients_home_enrolment_update AFTER UPDATE ON "patients"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION patient_home_enrolment();
