CREATE TABLE "external_order_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "external_order_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"patient_id" bigint NOT NULL,
	"need_by_date" date NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"rows" integer NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "external_order_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "external_order_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"program_id" bigint NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"admin_id" bigint,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "external_order_history_to_check" CHECK ("external_order_history"."to_status" IN ('received', 'matched', 'fill_verified', 'schedule_verified', 'verified', 'finalized', 'shipped', 'delivered', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "external_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "external_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"external_patient_id" bigint NOT NULL,
	"order_number" text NOT NULL,
	"status" text NOT NULL,
	"drug_name" text NOT NULL,
	"ndc" text,
	"strength" text,
	"quantity" integer NOT NULL,
	"days_supply" integer NOT NULL,
	"sig" text NOT NULL,
	"times_per_day" integer NOT NULL,
	"per_dose" integer NOT NULL,
	"times" text[] NOT NULL,
	"need_by_date" date NOT NULL,
	"automation" boolean DEFAULT false NOT NULL,
	"prescriber" text,
	"fill_verified_at" timestamp with time zone,
	"fill_verified_by" bigint,
	"schedule_verified_at" timestamp with time zone,
	"schedule_verified_by" bigint,
	"finalized_at" timestamp with time zone,
	"regimen_id" bigint,
	"equipment_file_id" bigint,
	"carrier" text,
	"tracking_number" text,
	"shipped_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "external_orders_status_check" CHECK ("external_orders"."status" IN ('received', 'matched', 'fill_verified', 'schedule_verified', 'verified', 'finalized', 'shipped', 'delivered', 'cancelled')),
	CONSTRAINT "external_orders_quantity_check" CHECK ("external_orders"."quantity" > 0 AND "external_orders"."days_supply" > 0),
	CONSTRAINT "external_orders_times_check" CHECK ("external_orders"."times_per_day" BETWEEN 1 AND 6 AND "external_orders"."per_dose" BETWEEN 1 AND 20)
);
--> statement-breakpoint
CREATE TABLE "external_patients" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "external_patients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"program_id" bigint NOT NULL,
	"pharmacy_patient_id" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"dob" date NOT NULL,
	"phone" text,
	"mrn" text,
	"patient_id" bigint,
	"linked_by" bigint,
	"linked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "external_order_files" ADD CONSTRAINT "external_order_files_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_order_files" ADD CONSTRAINT "external_order_files_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_order_files" ADD CONSTRAINT "external_order_files_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_order_history" ADD CONSTRAINT "external_order_history_order_id_external_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."external_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_order_history" ADD CONSTRAINT "external_order_history_admin_id_admins_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_orders" ADD CONSTRAINT "external_orders_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_orders" ADD CONSTRAINT "external_orders_external_patient_id_external_patients_id_fk" FOREIGN KEY ("external_patient_id") REFERENCES "public"."external_patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_orders" ADD CONSTRAINT "external_orders_fill_verified_by_admins_id_fk" FOREIGN KEY ("fill_verified_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_orders" ADD CONSTRAINT "external_orders_schedule_verified_by_admins_id_fk" FOREIGN KEY ("schedule_verified_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_orders" ADD CONSTRAINT "external_orders_regimen_id_regimens_id_fk" FOREIGN KEY ("regimen_id") REFERENCES "public"."regimens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_orders" ADD CONSTRAINT "external_orders_equipment_file_id_external_order_files_id_fk" FOREIGN KEY ("equipment_file_id") REFERENCES "public"."external_order_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_patients" ADD CONSTRAINT "external_patients_program_id_programs_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."programs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_patients" ADD CONSTRAINT "external_patients_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_patients" ADD CONSTRAINT "external_patients_linked_by_admins_id_fk" FOREIGN KEY ("linked_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "external_order_files_program_idx" ON "external_order_files" USING btree ("program_id","created_at");--> statement-breakpoint
CREATE INDEX "external_order_history_order_idx" ON "external_order_history" USING btree ("order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "external_orders_program_number_key" ON "external_orders" USING btree ("program_id","order_number");--> statement-breakpoint
CREATE INDEX "external_orders_program_date_idx" ON "external_orders" USING btree ("program_id","need_by_date","id");--> statement-breakpoint
CREATE INDEX "external_orders_patient_idx" ON "external_orders" USING btree ("external_patient_id","need_by_date");--> statement-breakpoint
CREATE INDEX "external_orders_drug_trgm_idx" ON "external_orders" USING gin ("drug_name" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "external_patients_program_key" ON "external_patients" USING btree ("program_id","pharmacy_patient_id");--> statement-breakpoint
CREATE INDEX "external_patients_patient_idx" ON "external_patients" USING btree ("patient_id");