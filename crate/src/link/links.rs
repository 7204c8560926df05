//! The links the page keeps for one set of params: the address bar's, a
//! single run's and the sweep's, and the view they show. A decoded link
//! carries them ([`super::Decoded::links`]), and the page asks for them
//! through the wasm glue when its params change: it keeps no copy of these
//! rules.

use serde::Serialize;

use crate::model::{Params, View};

/// The links of one set of params, as the page keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Links {
    /// The address bar's link: a sweep's keys only in the sweep view, so a
    /// link reproduces what the view shows.
    pub link: String,
    /// The link a single run is measured with: never a sweep's keys, so a
    /// run's report, exports and native command never carry a sweep.
    pub run: String,
    /// The link the sweep is run with (`None` without a sweep).
    pub sweep: Option<String>,
    /// The view the page shows ([`View::shown`]).
    pub view: View,
}

/// The links of `p` (valid params), each written by `encode` (the codec's
/// [`super::encode`], passed in so this module needs nothing from its parent).
pub fn links_with(p: &Params, encode: impl Fn(&Params) -> String) -> Links {
    let view = View::shown(p);
    let mut single = p.clone();
    single.sweep = None;
    // The link without a sweep's keys, in `p`'s view: a single run's, unless that view is the sweep.
    let plain = encode(&single);
    let run = if p.view == View::Sweep {
        single.view = View::Run;
        encode(&single)
    } else {
        plain.clone()
    };
    let sweep = p.sweep.map(|_| encode(&Params { view: View::Sweep, ..p.clone() }));
    let link = match (&sweep, view) {
        (Some(sweep), View::Sweep) => sweep.clone(),
        _ => plain,
    };
    Links { link, run, sweep, view }
}

#[cfg(test)]
mod tests {
    use super::super::{decode, encode, links, SWEEP_KEYS};
    use super::*;
    use crate::model::{Lab, Sweep, SweepAxis};

    fn keys_of(link: &str) -> Vec<String> {
        form_urlencoded::parse(link.as_bytes()).map(|(k, _)| k.into_owned()).collect()
    }

    #[test]
    fn a_run_link_never_carries_a_sweep_and_the_address_bar_only_in_the_sweep_view() {
        let swept = Params { sweep: Some(Sweep::one(SweepAxis::Cap, 16, 1024)), ..Params::default() };
        for view in [View::Run, View::Sweep, View::Timeline] {
            let l = links(&Params { view, ..swept.clone() });
            assert!(keys_of(&l.run).iter().all(|k| !SWEEP_KEYS.contains(&k.as_str())), "{view:?}: {}", l.run);
            let sweep = l.sweep.clone().expect("a sweep link");
            assert!(keys_of(&sweep).iter().any(|k| k == "sweep"), "{sweep}");
            assert_eq!(l.link == sweep, view == View::Sweep, "{view:?}: {}", l.link);
            assert_eq!(l.view, view);
            // Each link decodes to the same experiment as the params, but for the sweep's keys.
            assert_eq!(decode(&l.run).params.cap, swept.cap);
        }
        let plain = links(&Params::default());
        assert_eq!((plain.link.as_str(), plain.run.as_str(), plain.sweep), (encode(&Params::default()).as_str(), plain.link.as_str(), None));
    }

    #[test]
    fn a_decoded_link_carries_the_links_of_its_params() {
        for link in ["", "cap=4K&sweep=cap&from=16&to=64K", "cap=4K&sweep=cap&view=run", "view=timeline&step=4", "lab=write&view=sweep"] {
            let d = decode(link);
            assert_eq!(d.links, links(&d.params), "{link}");
        }
        assert_eq!(decode("lab=write&view=timeline").links.view, View::Run);
    }

    #[test]
    fn the_view_shown_is_one_the_lab_offers() {
        let write = Params { lab: Lab::Write, view: View::Sweep, ..Params::default() };
        assert_eq!(links(&write).view, View::Run);
        assert_eq!(links(&Params { view: View::Timeline, ..Params::default() }).view, View::Timeline);
        // A sweep view without a sweep shows the sweep view (it offers to pick an axis).
        assert_eq!(links(&Params { view: View::Sweep, ..Params::default() }).view, View::Sweep);
    }

    #[test]
    fn the_run_link_opens_the_view_shown_but_the_sweep_and_the_sweep_link_opens_the_sweep() {
        let swept = Params { sweep: Some(Sweep::one(SweepAxis::Cap, 16, 1024)), ..Params::default() };
        // The sweep view's run link opens a single run; any other view's keeps its view.
        for (view, run_view) in [(View::Run, View::Run), (View::Sweep, View::Run), (View::Timeline, View::Timeline)] {
            let l = links(&Params { view, ..swept.clone() });
            assert_eq!(decode(&l.run).params.view, run_view, "{view:?}: {}", l.run);
            let sweep = l.sweep.expect("a sweep link");
            assert_eq!(decode(&sweep).params.view, View::Sweep, "{view:?}: {sweep}");
        }
    }
}
