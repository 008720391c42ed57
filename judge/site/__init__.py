"""The public pages: a static site written from observer views and public
events only."""
