#include "OutputFile.h"

#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace posenc::OutputFile {

QCommandLineOption forceOption()
{
    return QCommandLineOption(u"force"_s, u"Replace the output file if it exists."_s);
}

std::optional<QString> refusal(const QString &path, bool force)
{
    if (force || !QFileInfo(path).isFile())
        return std::nullopt;
    return u"%1: the file exists; give --force to replace it"_s.arg(path);
}

} // namespace posenc::OutputFile
