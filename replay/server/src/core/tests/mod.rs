mod archive;
mod delay;
mod matcher;
mod priority;
mod schedule;

use crate::core::archive::{Archive, Resource};

/// A 200 response to a GET of `url`, as parse_archive would make it.
fn resource(id: &str, url: &str) -> Resource {
    let (origin, target) =
        crate::core::archive::Origin::parse_url(url).expect("test URLs are http(s)");
    Resource {
        id: id.to_string(),
        url: url.to_string(),
        origin,
        method: "GET".to_string(),
        target,
        status: 200,
        status_text: "OK".to_string(),
        headers: Vec::new().into(),
        body: None,
        mime: "text/html".to_string(),
        resource_type: "Document".to_string(),
        delay_ms: None,
        chrome_priority: None,
    }
}

fn archive_of(urls: &[&str]) -> Archive {
    Archive {
        resources: urls
            .iter()
            .enumerate()
            .map(|(i, url)| resource(&i.to_string(), url))
            .collect(),
    }
}
