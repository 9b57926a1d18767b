CREATE TABLE "alert_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"alert_id" bigint NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"admin_id" bigint,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alert_settings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"cohort_id" bigint,
	"patient_id" bigint,
	"settings" jsonb NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_settings_one_level_check" CHECK ("alert_settings"."cohort_id" IS NULL OR "alert_settings"."patient_id" IS NULL)
);
--> statement-breakpoint
CREATE TABLE "alert_snoozes" (
	"patient_id" bigint NOT NULL,
	"type" text NOT NULL,
	"condition_key" text NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"admin_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_snoozes_patient_id_type_condition_key_pk" PRIMARY KEY("patient_id","type","condition_key")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "alerts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"type" text NOT NULL,
	"condition_key" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"summary" text NOT NULL,
	"reason" jsonb NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"assigned_admin_id" bigint,
	"acknowledged_by" bigint,
	"acknowledged_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"escalated_to_role" text,
	"resolved_at" timestamp with time zone,
	"resolved_by" bigint,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alerts_status_check" CHECK ("alerts"."status" IN ('open', 'acknowledged', 'escalated', 'resolved')),
	CONSTRAINT "alerts_resolution_check" CHECK (("alerts"."status" = 'resolved') = ("alerts"."resolved_at" IS NOT NULL) AND ("alerts"."resolution" IS NULL OR "alerts"."resolution" IN ('auto', 'cleared')))
);
--> statement-breakpoint
ALTER TABLE "alert_history" ADD CONSTRAINT "alert_history_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_history" ADD CONSTRAINT "alert_history_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_cohort_id_groups_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_updated_by_admins_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_snoozes" ADD CONSTRAINT "alert_snoozes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_snoozes" ADD CONSTRAINT "alert_snoozes_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_assigned_admin_id_admins_id_fk" FOREIGN KEY ("assigned_admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_admins_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_resolved_by_admins_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_history_alert_idx" ON "alert_history" USING btree ("alert_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "alert_settings_level_unique" ON "alert_settings" USING btree ("program_id",coalesce("cohort_id", 0),coalesce("patient_id", 0));--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_condition_unique" ON "alerts" USING btree ("patient_id","type","condition_key") WHERE "alerts"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_board_idx" ON "alerts" USING btree ("program_id","type","last_at") WHERE "alerts"."status" <> 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_program_resolved_idx" ON "alerts" USING btree ("program_id","resolved_at") WHERE "alerts"."status" = 'resolved';--> statement-breakpoint
CREATE INDEX "alerts_patient_idx" ON "alerts" USING btree ("patient_id","type");