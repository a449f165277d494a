/* iochart-application.h: the app: one window per launch, captures opened as tabs */
#pragma once

#include <adwaita.h>
#include "iochart-live-page.h"

G_BEGIN_DECLS

#define IOCHART_APP_ID "org.iochart.Iochart"

#define IOCHART_TYPE_APPLICATION (iochart_application_get_type ())
G_DECLARE_FINAL_TYPE (IochartApplication, iochart_application, IOCHART, APPLICATION, AdwApplication)

IochartApplication *iochart_application_new (void);
/* The window opens recording live (`iochart live`); options are copied. */
void                iochart_application_set_live (IochartApplication           *self,
                                                  const IochartLivePageOptions *options);

G_END_DECLS
