//! `pagepath net check TOPOLOGY.json...`: each file read as `up` would read it (traces too), nothing
//! brought up, no root needed; what `pagepath validate` asks of a topology file.

use std::path::Path;

use crate::topology::{parse_topology, ParseContext};

pub fn run(argv: &[String]) -> Result<i32, String> {
    if argv.is_empty() {
        return Err("check: give one or more topology files".into());
    }
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let mut bad = 0;
    for file in argv {
        let path = cwd.join(file);
        let checked = std::fs::read_to_string(&path).map_err(|e| format!("{file}: cannot read the topology: {e}")).and_then(|text| {
            let ctx = ParseContext { source: file.clone(), base_dir: path.parent().unwrap_or(Path::new("/")).to_path_buf(), fallback_seed: 0, seed_override: None };
            parse_topology(&text, &ctx)
        });
        match checked {
            Ok(t) => println!("ok {file}: topology, {} path{}{}", t.paths.len(), if t.paths.len() == 1 { "" } else { "s" }, if t.mptcp { ", MPTCP" } else { "" }),
            Err(e) => {
                bad += 1;
                println!("invalid {e}");
            }
        }
    }
    Ok(if bad > 0 { 1 } else { 0 })
}
