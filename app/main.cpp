#include "cli/Cli.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("posenc"));
    QCoreApplication::setOrganizationName(QStringLiteral("PosEnc Explorer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(POSENC_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return posenc::runCli(QCoreApplication::arguments(), out, err);
}
