#pragma once

#include <QJsonObject>

// `posenc check --config`'s time (docs/ARCHITECTURE.md, Performance): a config of 4 MiB, the most
// ModelConfigFile reads, parsed and checked, and the example configs compiled in, each `repeats`
// times. The keys config_check_ms (the 4 MiB config, best), config_check_median_ms,
// config_check_distinct_ms and its median (a 4 MiB config whose every layer is a layer type of its
// own: the check is linear in them) and config_check_examples_ms (the slowest example, best); the
// promise is under 50 ms.
namespace posenc::ConfigCheckBenchmark {

QJsonObject times(int repeats);
// The 4 MiB config the bench checks: Gemma 4's text config over 65,536 layers listed in
// layer_types and no_rope_layers, and metadata to fill the rest.
QByteArray largestConfig();
// The other 4 MiB config: Llama's keys over 65,536 layers, each listed in layer_types as a layer
// type of its own, and metadata to fill the rest.
QByteArray distinctConfig();

} // namespace posenc::ConfigCheckBenchmark
