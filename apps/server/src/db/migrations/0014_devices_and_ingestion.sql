CREATE TABLE "device_commands" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_commands_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"device_id" bigint NOT NULL,
	"admin_id" bigint,
	"controller_id" bigint,
	"request" jsonb NOT NULL,
	"reply" jsonb,
	"status" text DEFAULT 'sent' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "device_commands_status_check" CHECK ("device_commands"."status" IN ('sent', 'answered', 'timed_out'))
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "device_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"device_id" bigint NOT NULL,
	"seq" bigint NOT NULL,
	"program_id" bigint,
	"patient_id" bigint,
	"type" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"payload" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "devices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"serial" text NOT NULL,
	"vendor" text NOT NULL,
	"kind" text NOT NULL,
	"dispenser_type" smallint,
	"program_id" bigint,
	"patient_id" bigint,
	"secret_hash" text,
	"verified" boolean DEFAULT false NOT NULL,
	"connected" boolean DEFAULT false NOT NULL,
	"last_seen_at" timestamp with time zone,
	"last_event_type" text,
	"battery" smallint,
	"pods_loaded" smallint,
	"firmware" text,
	"provisioned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_kind_check" CHECK ("devices"."kind" IN ('dispenser', 'inhaler', 'bp_cuff', 'pulse_oximeter', 'scale', 'glucometer', 'wearable', 'nfc_reader')),
	CONSTRAINT "devices_dispenser_type_check" CHECK (("devices"."kind" = 'dispenser') = ("devices"."dispenser_type" IS NOT NULL) AND ("devices"."dispenser_type" IS NULL OR "devices"."dispenser_type" IN (1, 2))),
	CONSTRAINT "devices_battery_check" CHECK ("devices"."battery" IS NULL OR "devices"."battery" BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE TABLE "dispenser_subscriptions" (
	"device_id" bigint NOT NULL,
	"admin_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispenser_subscriptions_device_id_admin_id_pk" PRIMARY KEY("device_id","admin_id")
);
--> statement-breakpoint
CREATE TABLE "measurements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "measurements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"device_id" bigint,
	"device_event_id" bigint,
	"type" text NOT NULL,
	"value" double precision NOT NULL,
	"unit" text NOT NULL,
	"measured_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "medication_usages" ADD COLUMN "kind" text DEFAULT 'taken' NOT NULL;--> statement-breakpoint
ALTER TABLE "medication_usages" ADD COLUMN "device_event_id" bigint;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_controller_id_controller_accounts_id_fk" FOREIGN KEY ("controller_id") REFERENCES "public"."controller_accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_events" ADD CONSTRAINT "device_events_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispenser_subscriptions" ADD CONSTRAINT "dispenser_subscriptions_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispenser_subscriptions" ADD CONSTRAINT "dispenser_subscriptions_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_device_idx" ON "device_commands" USING btree ("device_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "device_events_device_seq_unique" ON "device_events" USING btree ("device_id","seq");--> statement-breakpoint
CREATE INDEX "device_events_patient_idx" ON "device_events" USING btree ("patient_id","occurred_at");--> statement-breakpoint
CREATE INDEX "device_events_device_time_idx" ON "device_events" USING btree ("device_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_unique" ON "devices" USING btree ("serial");--> statement-breakpoint
CREATE INDEX "devices_program_idx" ON "devices" USING btree ("program_id","kind","id");--> statement-breakpoint
CREATE INDEX "devices_patient_idx" ON "devices" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "measurements_patient_type_time_idx" ON "measurements" USING btree ("patient_id","type","measured_at");--> statement-breakpoint
CREATE UNIQUE INDEX "measurements_event_type_unique" ON "measurements" USING btree ("device_event_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "medication_usages_device_event_unique" ON "medication_usages" USING btree ("device_event_id");--> statement-breakpoint
ALTER TABLE "medication_usages" ADD CONSTRAINT "medication_usages_kind_check" CHECK ("medication_usages"."kind" IN ('taken', 'skipped'));--> statement-breakpoint
ALTER TABLE "medication_usages" ADD CONSTRAINT "medication_usages_source_check" CHECK ("medication_usages"."source" IN ('manual', 'dispenser', 'nfc', 'inhaler'));