//! Counters one direction keeps, written out with the run's results. Bytes are wire sizes.

use super::queue::Drops;
use super::Micros;
use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Everything handed to the link, including packets then lost or dropped.
    pub arrived_packets: u64,
    pub arrived_bytes: u64,
    /// Lost by the loss model before the queue.
    pub lost_packets: u64,
    /// Dropped by the queue's limit or AQM.
    pub dropped_packets: u64,
    pub dropped_bytes: u64,
    /// Finished crossing the bottleneck.
    pub departed_packets: u64,
    pub departed_bytes: u64,
    /// Left the delay line.
    pub delivered_packets: u64,
    pub delivered_bytes: u64,
    pub opportunities_used: u64,
    pub opportunities_unused: u64,
    pub max_queue_packets: u64,
    pub max_queue_bytes: u64,
    /// Time from entering the queue to finishing on the link, over departed packets.
    pub sum_queue_delay_us: u64,
    pub max_queue_delay_us: u64,
}

impl Stats {
    pub fn record_drops(&mut self, drops: Drops) {
        self.dropped_packets += drops.packets;
        self.dropped_bytes += drops.bytes;
    }

    pub fn record_queue(&mut self, packets: u64, bytes: u64) {
        self.max_queue_packets = self.max_queue_packets.max(packets);
        self.max_queue_bytes = self.max_queue_bytes.max(bytes);
    }

    pub fn record_departure(&mut self, wire: u64, queue_delay: Micros) {
        self.departed_packets += 1;
        self.departed_bytes += wire;
        self.sum_queue_delay_us += queue_delay;
        self.max_queue_delay_us = self.max_queue_delay_us.max(queue_delay);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_with_camel_case_names() {
        let stats = Stats {
            max_queue_delay_us: 7,
            ..Stats::default()
        };
        let json = serde_json::to_value(&stats).unwrap();
        let mut keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        let mut expected = [
            "arrivedPackets",
            "arrivedBytes",
            "lostPackets",
            "droppedPackets",
            "droppedBytes",
            "departedPackets",
            "departedBytes",
            "deliveredPackets",
            "deliveredBytes",
            "opportunitiesUsed",
            "opportunitiesUnused",
            "maxQueuePackets",
            "maxQueueBytes",
            "sumQueueDelayUs",
            "maxQueueDelayUs",
        ];
        expected.sort_unstable();
        assert_eq!(keys, expected);
        assert_eq!(json["maxQueueDelayUs"], 7);
    }

    #[test]
    fn records_keep_maxima_and_sums() {
        let mut s = Stats::default();
        s.record_departure(1504, 30);
        s.record_departure(100, 10);
        s.record_queue(3, 900);
        s.record_queue(2, 1000);
        s.record_drops(Drops {
            packets: 2,
            bytes: 600,
        });
        assert_eq!(
            (
                s.departed_packets,
                s.departed_bytes,
                s.sum_queue_delay_us,
                s.max_queue_delay_us
            ),
            (2, 1604, 40, 30)
        );
        assert_eq!(
            (
                s.max_queue_packets,
                s.max_queue_bytes,
                s.dropped_packets,
                s.dropped_bytes
            ),
            (3, 1000, 2, 600)
        );
    }
}
