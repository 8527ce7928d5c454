//! Times as the API shows them: RFC 3339 in UTC, to the millisecond.

/// `ms` since the Unix epoch as `2026-12-07T11:59:32.123Z`.
pub fn rfc3339(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z", rem / 3600, rem % 3600 / 60, rem % 60, ms % 1000)
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_are_rfc3339_in_utc() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 (a leap day of a century year) and 2026-12-07.
        assert_eq!(super::rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(super::rfc3339(1_796_644_772_123), "2026-12-07T11:59:32.123Z");
    }
}
