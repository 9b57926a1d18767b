ALTER TABLE "device_schedules" DROP CONSTRAINT "device_schedules_status_check";--> statement-breakpoint
ALTER TABLE "device_goals" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_goals" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "device_schedules" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "device_schedules_pending_idx" ON "device_schedules" USING btree ("device_id","id") WHERE "device_schedules"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "device_goals" ADD CONSTRAINT "device_goals_status_check" CHECK ("device_goals"."status" IN ('pending', 'sent', 'superseded'));--> statement-breakpoint
ALTER TABLE "device_schedules" ADD CONSTRAINT "device_schedules_status_check" CHECK ("device_schedules"."status" IN ('pending', 'sent', 'superseded'));--> statement-breakpoint
-- Rows from before delivery on reconnect (ADR 050). A pending schedule with a newer one for the same device
-- (pending or sent) would never be the device's schedule again: superseded. The newest pending one of a
-- device stays pending and is sent when the device next connects.
UPDATE "device_schedules" s SET "status" = 'superseded'
WHERE s."status" = 'pending'
  AND EXISTS (SELECT 1 FROM "device_schedules" n WHERE n."device_id" = s."device_id" AND n."id" > s."id");
--> statement-breakpoint
-- Goals were never tracked: whether one reached its device is unknown. The newest of each device and type
-- stays pending (sent at the device's next connection; set_goal is idempotent, so a device that had it
-- loses nothing), older ones are superseded (no longer the device's goal).
UPDATE "device_goals" g SET "status" = 'superseded'
WHERE EXISTS (SELECT 1 FROM "device_goals" n WHERE n."device_id" = g."device_id" AND n."type" = g."type" AND n."id" > g."id");
