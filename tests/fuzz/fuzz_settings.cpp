// libFuzzer target: any bytes as the window's settings file (QSettings' INI text) must give the
// remembered parameters, valid and within what a start restores, or the defaults with a line for
// each problem; and export choices the export dialog offers. Never a crash, a hang or an
// exception (issue 62: the settings file as a hostile file).
#include "gui/Settings.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

// A broken promise, named on standard error before the fuzzer records the input.
[[noreturn]] void broken(const char *promise, const QString &detail = QString())
{
    std::fprintf(stderr, "fuzz_settings: %s %s\n", promise, qPrintable(detail));
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace posenc;
    static QTemporaryDir dir;
    static std::uint64_t run = 0;
    // A file of its own each time: QSettings keeps a file it has read while its size and time stay.
    const QString path = dir.filePath(QStringLiteral("settings-%1.conf").arg(run++));
    {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            broken("the scratch file could not be written");
        file.write(reinterpret_cast<const char *>(data), qint64(size));
    }
    {
        QSettings settings(path, QSettings::IniFormat);
        const Settings::LoadedParams loaded = Settings::loadParams(settings);
        if (!loaded.params.isValid())
            broken("invalid parameters restored");
        for (const QString &problem : loaded.problems)
            if (problem.isEmpty() || problem.contains(u'\n'))
                broken("a problem is not one line:", problem);
        const auto cells = std::uint64_t(loaded.params.maxLen) * std::uint64_t(loaded.params.dModel);
        if (cells > Settings::kMaxRememberedCells)
            broken("parameters past what a start restores");
        const Settings::ExportChoices choices = Settings::loadExportChoices(settings);
        if (choices.dpi < 10 || choices.dpi > 2400)
            broken("an export resolution the dialog does not offer:", QString::number(choices.dpi));
        if (!QStringList {QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf")}.contains(choices.format))
            broken("an export format the dialog does not offer:", choices.format);
        settings.clear(); // nothing is written back to the file
    }
    QFile::remove(path);
    return 0;
}
