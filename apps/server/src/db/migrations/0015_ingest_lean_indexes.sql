ALTER TABLE "device_events" DROP CONSTRAINT "device_events_device_id_devices_id_fk";
--> statement-breakpoint
ALTER TABLE "measurements" DROP CONSTRAINT "measurements_device_id_devices_id_fk";
--> statement-breakpoint
DROP INDEX "device_events_patient_idx";