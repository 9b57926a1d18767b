CREATE TABLE "notification_schedules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notification_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"at_time" time NOT NULL,
	"days" integer[] NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date,
	"next_at" timestamp with time zone,
	"sent" integer DEFAULT 0 NOT NULL,
	"created_by" bigint,
	"stopped_at" timestamp with time zone,
	"stopped_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_schedules_type_check" CHECK ("notification_schedules"."type" IN ('sms', 'email', 'push'))
);
--> statement-breakpoint
ALTER TABLE "notification_schedules" ADD CONSTRAINT "notification_schedules_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_schedules" ADD CONSTRAINT "notification_schedules_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_schedules" ADD CONSTRAINT "notification_schedules_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_schedules" ADD CONSTRAINT "notification_schedules_stopped_by_admins_id_fk" FOREIGN KEY ("stopped_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_schedules_due_idx" ON "notification_schedules" USING btree ("next_at") WHERE "notification_schedules"."next_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "notification_schedules_patient_idx" ON "notification_schedules" USING btree ("patient_id","id");