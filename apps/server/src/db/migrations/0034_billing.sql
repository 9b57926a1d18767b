CREATE TABLE "billing_time_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "billing_time_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"admin_id" bigint NOT NULL,
	"type" text NOT NULL,
	"activity" text NOT NULL,
	"interactive" boolean DEFAULT false NOT NULL,
	"billable" boolean DEFAULT true NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"seconds" integer NOT NULL,
	"note" text,
	"source" text DEFAULT 'manual' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_time_entries_type_check" CHECK ("billing_time_entries"."type" IN ('rpm', 'ccm')),
	CONSTRAINT "billing_time_entries_seconds_check" CHECK ("billing_time_entries"."seconds" > 0 AND "billing_time_entries"."seconds" <= 28800),
	CONSTRAINT "billing_time_entries_source_check" CHECK ("billing_time_entries"."source" IN ('timer', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "patient_billing_status" (
	"patient_id" bigint PRIMARY KEY NOT NULL,
	"program_id" bigint NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_billing_status_check" CHECK ("patient_billing_status"."status" IN ('billable', 'not_billable', 'on_hold'))
);
--> statement-breakpoint
ALTER TABLE "billing_time_entries" ADD CONSTRAINT "billing_time_entries_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_time_entries" ADD CONSTRAINT "billing_time_entries_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_billing_status" ADD CONSTRAINT "patient_billing_status_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_billing_status" ADD CONSTRAINT "patient_billing_status_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_time_entries_patient_idx" ON "billing_time_entries" USING btree ("patient_id","started_at");--> statement-breakpoint
CREATE INDEX "billing_time_entries_program_idx" ON "billing_time_entries" USING btree ("program_id","started_at");--> statement-breakpoint
CREATE INDEX "patient_billing_status_program_idx" ON "patient_billing_status" USING btree ("program_id","status");