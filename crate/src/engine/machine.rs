//! Where a native run is measured: operating system, CPU model, cores, the
//! timer's step. (In a browser the wasm glue asks the worker's `navigator`.)

use crate::model::{Machine, MachineKind, Timer};

/// This machine, as far as std and Linux's /proc/cpuinfo tell.
pub fn native(timer: &Timer) -> Machine {
    Machine {
        kind: MachineKind::Native,
        user_agent: None,
        os: Some(format!("{} {}", std::env::consts::OS, std::env::consts::ARCH)),
        cpu: std::fs::read_to_string("/proc/cpuinfo").ok().and_then(|text| cpu_model(&text)),
        cores: std::thread::available_parallelism().ok().map(|n| n.get() as u32),
        isolated: timer.isolated,
        timer_step_ns: timer.resolution_ns,
        build: Machine::this_build(),
    }
}

/// The CPU's model from /proc/cpuinfo's text: x86's `model name`, or
/// what ARM kernels print instead (`Model`, `Hardware`).
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Model", "Hardware"].iter().find_map(|field| {
        cpuinfo.lines().find_map(|line| {
            let (name, value) = line.split_once(':')?;
            (name.trim() == *field && !value.trim().is_empty()).then(|| value.split_whitespace().collect::<Vec<_>>().join(" "))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_model_is_read_from_cpuinfo() {
        let x86 = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R)  CPU @ 2.20GHz\nflags\t\t: fpu\n";
        assert_eq!(cpu_model(x86).as_deref(), Some("Intel(R) Xeon(R) CPU @ 2.20GHz"));
        assert_eq!(cpu_model("processor : 0\nHardware : BCM2835\n").as_deref(), Some("BCM2835"));
        assert_eq!(cpu_model("garbage without colons"), None);
        let here = native(&Timer { resolution_ns: 20.0, isolated: true, samples_lengthened: false });
        assert_eq!((here.kind, here.timer_step_ns), (MachineKind::Native, 20.0));
        assert!(here.cores.is_some_and(|c| c >= 1), "{here:?}");
    }
}
