// libFuzzer target: any bytes given as a model config must give a ReadError, or a check whose
// every layer, finding and problem is well formed; never a crash, a hang or an exception.
#include "check/ModelConfigCheck.h"
#include "io/ModelConfigFile.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace posenc;
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto object = ModelConfigFile::parse(bytes, QStringLiteral("fuzz.json"));
    if (!object)
        return 0;
    const ConfigCheck check = ModelConfig::check(object.value());
    for (const ConfigFinding &f : check.findings) {
        if (f.id.isEmpty() || f.message.isEmpty() || f.message.contains(u'\n'))
            __builtin_trap();
    }
    for (const ConfigProblem &p : check.problems) {
        if (p.key.isEmpty() || p.allowed.isEmpty())
            __builtin_trap();
    }
    // A described layer has parameters the program can compute with.
    for (const ConfigLayer &layer : check.layers) {
        if (layer.described && check.problems.isEmpty() && !layer.params.isValid())
            __builtin_trap();
    }
    return 0;
}
