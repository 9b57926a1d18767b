CREATE TABLE "device_goals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_goals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"device_id" bigint NOT NULL,
	"type" text NOT NULL,
	"target" double precision NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_goals_type_check" CHECK ("device_goals"."type" IN ('steps', 'active_minutes', 'sleep', 'weight', 'adherence'))
);
--> statement-breakpoint
CREATE TABLE "device_schedules" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_schedules_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"device_id" bigint NOT NULL,
	"group_id" bigint,
	"regimen_id" bigint,
	"times" text[] NOT NULL,
	"weekdays" smallint[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_schedules_status_check" CHECK ("device_schedules"."status" IN ('pending', 'sent'))
);
--> statement-breakpoint
ALTER TABLE "device_goals" ADD CONSTRAINT "device_goals_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_goals" ADD CONSTRAINT "device_goals_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_schedules" ADD CONSTRAINT "device_schedules_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_schedules" ADD CONSTRAINT "device_schedules_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_schedules" ADD CONSTRAINT "device_schedules_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_goals_device_idx" ON "device_goals" USING btree ("device_id","id");--> statement-breakpoint
CREATE INDEX "device_schedules_patient_idx" ON "device_schedules" USING btree ("patient_id","id");--> statement-breakpoint
CREATE INDEX "device_schedules_group_idx" ON "device_schedules" USING btree ("group_id","id");