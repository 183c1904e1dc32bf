//! A ledger written out for keeping: CSV (one row a hand, for a spreadsheet) and JSON (the
//! whole view, every hand's request and answer included).

use super::ledger::LedgerView;

/// The ledger as CSV: a header, then one row a hand: its number, dealer, wind, lao, the
/// winner (or "draw"), how the hand was won, its total, every player's payment, then every
/// player's chips after it. The `csv` crate does the quoting (names may hold commas).
pub fn csv(view: &LedgerView) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = ["hand", "dealer", "wind", "lao", "winner", "win", "total"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    header.extend(view.players.iter().map(|p| format!("{p} paid")));
    header.extend(view.players.iter().map(|p| format!("{p} total")));
    w.write_record(&header)?;
    for h in &view.hands {
        let name = |chair: usize| view.players.get(chair).cloned().unwrap_or_default();
        let request = h.request.as_ref();
        let how = match request.and_then(|r| r["win"].as_str()) {
            None => String::new(),
            Some(win) => match request
                .and_then(|r| r["discarder"].as_str())
                .and_then(|d| h.seats.iter().position(|s| s.name() == d))
            {
                Some(chair) => format!("{win} from {}", name(chair)),
                None => win.to_string(),
            },
        };
        let total = h
            .answer
            .as_ref()
            .map(|a| a["total"].to_string())
            .unwrap_or_default();
        let mut row = vec![
            h.number.to_string(),
            name(h.deal.dealer.index()),
            majiang::Seat::from_wind(h.deal.prevailing_wind)
                .name()
                .to_string(),
            h.deal.lao.to_string(),
            h.winner
                .map(|c| name(usize::from(c)))
                .unwrap_or_else(|| "draw".into()),
            how,
            total,
        ];
        row.extend(h.payments.iter().map(i64::to_string));
        row.extend(h.totals.iter().map(i64::to_string));
        w.write_record(&row)?;
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
