CREATE SEQUENCE "public"."pod_code_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 100000 CACHE 1;--> statement-breakpoint
CREATE TABLE "disease_states" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "disease_states_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"conditions" jsonb NOT NULL,
	"regimen_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"script_id" bigint,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_by" bigint
);
--> statement-breakpoint
CREATE TABLE "medication_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "medication_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"regimen_id" bigint,
	"drug_name" text NOT NULL,
	"strength" text,
	"route" text,
	"form" text,
	"quantity" integer,
	"refills" integer,
	"instructions" text,
	"prescriber_id" bigint,
	"status" text DEFAULT 'open' NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medication_orders_status_check" CHECK ("medication_orders"."status" IN ('open', 'filled', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "medication_usages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "medication_usages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"regimen_id" bigint NOT NULL,
	"pod_id" bigint,
	"taken_at" timestamp with time zone NOT NULL,
	"servings" integer DEFAULT 1 NOT NULL,
	"note" text,
	"source" text DEFAULT 'manual' NOT NULL,
	"recorded_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pods" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "pods_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"regimen_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"barcode" text NOT NULL,
	"prefix" text NOT NULL,
	"num" integer NOT NULL,
	"original_servings" integer NOT NULL,
	"servings_remaining" integer NOT NULL,
	"linked_regimen_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pods_barcode_unique" UNIQUE("barcode"),
	CONSTRAINT "pods_servings_check" CHECK ("pods"."servings_remaining" BETWEEN 0 AND "pods"."original_servings")
);
--> statement-breakpoint
CREATE TABLE "regimens" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "regimens_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"order_id" bigint,
	"parent_id" bigint,
	"type" text DEFAULT 'medication' NOT NULL,
	"name" text NOT NULL,
	"repeat" text DEFAULT 'daily' NOT NULL,
	"interval" integer DEFAULT 1 NOT NULL,
	"time_cascade" boolean DEFAULT false NOT NULL,
	"billable" boolean DEFAULT true NOT NULL,
	"lockout_time" integer DEFAULT 0 NOT NULL,
	"times" text[] DEFAULT '{}'::text[] NOT NULL,
	"num" integer DEFAULT 1 NOT NULL,
	"created_by_name" text,
	"created_by" bigint,
	"scheduled_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"multi_pod" boolean DEFAULT false NOT NULL,
	"unlock_before" integer DEFAULT 0 NOT NULL,
	"device_serial" text,
	"status" text DEFAULT 'active' NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "regimens_type_check" CHECK ("regimens"."type" IN ('medication', 'inhaler', 'medesto-device')),
	CONSTRAINT "regimens_status_check" CHECK ("regimens"."status" IN ('active', 'completed')),
	CONSTRAINT "regimens_repeat_check" CHECK ("regimens"."repeat" IN ('daily', 'weekly', 'monthly', 'as_needed'))
);
--> statement-breakpoint
CREATE TABLE "scripts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scripts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"patient_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"drug_name" text NOT NULL,
	"sig" text,
	"quantity" integer,
	"refills" integer,
	"prescriber" text,
	"written_at" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "disease_states" ADD CONSTRAINT "disease_states_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_states" ADD CONSTRAINT "disease_states_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_states" ADD CONSTRAINT "disease_states_script_id_scripts_id_fk" FOREIGN KEY ("script_id") REFERENCES "public"."scripts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disease_states" ADD CONSTRAINT "disease_states_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_orders" ADD CONSTRAINT "medication_orders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_orders" ADD CONSTRAINT "medication_orders_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_orders" ADD CONSTRAINT "medication_orders_prescriber_id_admins_id_fk" FOREIGN KEY ("prescriber_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_orders" ADD CONSTRAINT "medication_orders_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_usages" ADD CONSTRAINT "medication_usages_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_usages" ADD CONSTRAINT "medication_usages_regimen_id_regimens_id_fk" FOREIGN KEY ("regimen_id") REFERENCES "public"."regimens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_usages" ADD CONSTRAINT "medication_usages_pod_id_pods_id_fk" FOREIGN KEY ("pod_id") REFERENCES "public"."pods"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_usages" ADD CONSTRAINT "medication_usages_recorded_by_admins_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pods" ADD CONSTRAINT "pods_regimen_id_regimens_id_fk" FOREIGN KEY ("regimen_id") REFERENCES "public"."regimens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pods" ADD CONSTRAINT "pods_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pods" ADD CONSTRAINT "pods_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pods" ADD CONSTRAINT "pods_linked_regimen_id_regimens_id_fk" FOREIGN KEY ("linked_regimen_id") REFERENCES "public"."regimens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regimens" ADD CONSTRAINT "regimens_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regimens" ADD CONSTRAINT "regimens_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regimens" ADD CONSTRAINT "regimens_order_id_medication_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."medication_orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regimens" ADD CONSTRAINT "regimens_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scripts" ADD CONSTRAINT "scripts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scripts" ADD CONSTRAINT "scripts_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "disease_states_patient_idx" ON "disease_states" USING btree ("patient_id") WHERE "disease_states"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "medication_orders_patient_idx" ON "medication_orders" USING btree ("patient_id","id");--> statement-breakpoint
CREATE INDEX "medication_usages_patient_idx" ON "medication_usages" USING btree ("patient_id","taken_at");--> statement-breakpoint
CREATE INDEX "pods_regimen_idx" ON "pods" USING btree ("regimen_id","num");--> statement-breakpoint
CREATE INDEX "pods_program_created_idx" ON "pods" USING btree ("program_id","created_at");--> statement-breakpoint
CREATE INDEX "regimens_patient_idx" ON "regimens" USING btree ("patient_id","id");--> statement-breakpoint
CREATE INDEX "regimens_device_active_idx" ON "regimens" USING btree ("device_serial") WHERE "regimens"."status" = 'active';--> statement-breakpoint
CREATE INDEX "scripts_patient_idx" ON "scripts" USING btree ("patient_id","id");