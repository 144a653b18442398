import json
cases=[]
def act(*calls, ask=False):
    return {"outcome":"act","calls":[{"tool":t,"args":a} for t,a in calls],"accept_ask":ask}
def ASK(): return {"outcome":"ask"}
def ans(*w):
    d={"outcome":"answer"}
    if w: d["reply_any"]=list(w)
    return d
def dec(*w):
    d={"outcome":"decline"}
    if w: d["reply_any"]=list(w)
    return d
def add(cat, ctx, *turns):
    cases.append({"id":"h%03d"%(len(cases)+1),"context":ctx,"category":cat,
                  "turns":[{"message":m,"expect":e} for m,e in turns]})
def W(sensors, s=None, e=None, **kw):
    a={"sensor_ids":sensors}
    if s: a["starts_at"]=s
    if e: a["ends_at"]=e
    a.update(kw)
    return ("create_watch",a)
def U(wid, **kw):
    a={"watch_id":wid}; a.update(kw); return ("update_watch",a)
def SD(wid): return ("stand_down_watch",{"watch_id":wid})

# Lisbon 2026-11-21 17:00 (Sat). tonight = sunset 17:21 -> sunrise 07:28 (07:27:37 rounded)
T=("2026-11-21T17:21","2026-11-22T07:28")
NOW="2026-11-21T17:00"
# NY now 2026-07-04 21:30 (already dark) -> sunrise 05:32
NYT=("2026-07-04T21:30","2026-07-05T05:32")
NIGHT=("2026-11-22T00:34","2026-11-22T07:28")
DST=("2026-03-28T18:57","2026-03-29T07:28")
PORCH="sen_porch_cam"; DRIVE="sen_driveway_cam"; BACKDOOR="sen_back_door"; GARAGE="sen_garage_motion"
YARD="sen_backyard_cam"; LIVING="sen_living_cam"; NURSERY="sen_nursery_cam"
BOUND=["alone","private","privacy","boundary","off limits","off-limits","nursery"]

# ---------------- watch (30)
c="watch"
add(c,"lisbon",("Can you keep an eye on the front porch tonight?",act(W([PORCH],*T))))
add(c,"lisbon",("watch the driveway from 10pm to 6am",act(W([DRIVE],"2026-11-21T22:00","2026-11-22T06:00"))))
add(c,"lisbon",("I'm expecting a parcel tomorrow, could you watch the porch between 9 and 1?",act(W([PORCH],"2026-11-22T09:00","2026-11-22T13:00"))))
add(c,"lisbon",("keep tabs on the garage overnight",act(W([GARAGE],*T))))
add(c,"lisbon",("watch the back door tonight and let me know if it opens",act(W([BACKDOOR],*T,conditions=["door_open"]))))
add(c,"lisbon",("tell me if a car pulls into the driveway tonight",act(W([DRIVE],*T,conditions=["vehicle"]))))
add(c,"lisbon",("Please watch the porch and the driveway tonight.",act(W([PORCH,DRIVE],*T))))
add(c,"lisbon",("could you watch the garage from now until 8?",act(W([GARAGE],NOW,"2026-11-21T20:00"))))
add(c,"new_york",("watch the garage tonight",act(W(["ny_garage_cam"],*NYT))))
add(c,"new_york",("keep an eye on the side gate till midnight",act(W(["ny_gate"],"2026-07-04T21:30","2026-07-05T00:00"))))
add(c,"new_york",("can you watch the basement tonight pls",act(W(["ny_basement"],*NYT))))
add(c,"new_york",("Babysitter's here until 11, can you watch the front door till then?",act(W(["ny_front_cam"],"2026-07-04T21:30","2026-07-04T23:00"))))
add(c,"london_no_location",("Watch the hallway camera from 2 till 5 this afternoon, please.",act(W(["ldn_hall_cam"],"2026-11-21T14:00","2026-11-21T17:00"))))
add(c,"london_no_location",("keep an eye on the balcony until 6pm",act(W(["ldn_balcony_cam"],"2026-11-21T10:00","2026-11-21T18:00"))))
add(c,"london_no_location",("front door contact, 9pm to 7am please",act(W(["ldn_front_door"],"2026-11-21T21:00","2026-11-22T07:00"))))
add(c,"lisbon",("could you watch the kitchen door tonight",act(W([BACKDOOR],*T))))
add(c,"lisbon",("watch for anyone loitering around the front porch tonight",act(W([PORCH],*T,conditions=["loitering"]))))
add(c,"new_york",("let me know if there's someone I don't recognise at the front door tonight",act(W(["ny_front_cam"],*NYT,conditions=["unrecognized_person"]))))
add(c,"lisbon",("watch the garage every night",act(W([GARAGE],T[0],recurrence="daily"))))
add(c,"lisbon",("keep an eye on the driveway at weekends",act(W([DRIVE],recurrence="weekends"),ask=True)))
add(c,"lisbon_dst",("watch the garage tonight",act(W([GARAGE],*DST))))
add(c,"lisbon",("watch the porch",act(W([PORCH],NOW,"2026-11-22T17:00"),ask=True)))
add(c,"lisbon",("mind the garage for me till I'm back at 10",act(W([GARAGE],NOW,"2026-11-21T22:00"))))
add(c,"lisbon",("keep watch on the backyard from dusk till dawn",act(W([YARD],"2026-11-21T17:50","2026-11-22T06:59"))))
add(c,"lisbon",("We're out for dinner, watch the driveway until 11:30 would you",act(W([DRIVE],NOW,"2026-11-21T23:30"))))
add(c,"lisbon",("watch the nursery tonight",act(W([NURSERY],*T))))
add(c,"lisbon",("use the garage motion sensor tomorrow from 8am to 6pm",act(W([GARAGE],"2026-11-22T08:00","2026-11-22T18:00")))),
add(c,"lisbon",("keep an eye on the back garden tonight, only bother me if it's a person",act(W([YARD],*T,conditions=["person"]),ask=True)))
add(c,"lisbon",("Hi Vigil, could you please watch the living room this evening from 7 to 11? Thanks",act(W([LIVING],"2026-11-21T19:00","2026-11-21T23:00"))))
add(c,"new_york",("heading to bed. watch the garage and the side gate till morning",act(W(["ny_garage_cam","ny_gate"],"2026-07-04T21:30"),ask=True)))

# ---------------- time (25)
c="time"
add(c,"lisbon",("watch the driveway till friday evening",act(W([DRIVE],NOW),ask=True)))
add(c,"lisbon",("can you keep watching the porch until the 30th",act(W([PORCH],NOW),ask=True)))
add(c,"lisbon",("watch the garage this weekend",act(W([GARAGE],NOW),ask=True)))
add(c,"lisbon",("we're off on holiday, back on the 30th - watch the porch and the back door while we're away",act(W([PORCH,BACKDOOR],NOW),ask=True)))
add(c,"lisbon",("the cleaner comes around 4 tomorrow, can you watch the living room from 4 to 6",act(W([LIVING],"2026-11-22T16:00","2026-11-22T18:00"))))
add(c,"lisbon",("can you watch the driveway around 4",ASK()))
add(c,"lisbon",("watch the back door every weekday night",act(W([BACKDOOR],recurrence="weekdays"))))
add(c,"lisbon",("between 11pm and 6am keep an eye on the backyard",act(W([YARD],"2026-11-21T23:00","2026-11-22T06:00"))))
add(c,"lisbon",("watch the garage for the next 3 hours",act(W([GARAGE],NOW,"2026-11-21T20:00"))))
add(c,"lisbon",("watch the porch for 90 mins",act(W([PORCH],NOW,"2026-11-21T18:30"))))
add(c,"lisbon_night",("can't sleep. watch the backyard tonight",act(W([YARD],*NIGHT))))
add(c,"lisbon_night",("keep an eye on the driveway until sunrise",act(W([DRIVE],*NIGHT))))
add(c,"lisbon_night",("watch the garage till 6",act(W([GARAGE],"2026-11-22T00:34","2026-11-22T06:00"))))
add(c,"lisbon",("watch the porch from 2 to 4 this afternoon",ASK()))
add(c,"lisbon",("watch the driveway last night",ASK()))
add(c,"new_york",("watch the garage until 2am",act(W(["ny_garage_cam"],"2026-07-04T21:30","2026-07-05T02:00"))))
add(c,"new_york",("watch the side gate tomorrow from 6am to noon",act(W(["ny_gate"],"2026-07-05T06:00","2026-07-05T12:00"))))
add(c,"lisbon",("watch the backyard until dawn",act(W([YARD],NOW,"2026-11-22T06:59"))))
add(c,"lisbon",("watch the porch from sunset to midnight",act(W([PORCH],"2026-11-21T17:21","2026-11-22T00:00"))))
add(c,"lisbon",("from 7 tonight till 7 tomorrow morning watch the garage",act(W([GARAGE],"2026-11-21T19:00","2026-11-22T07:00"))))
add(c,"london_no_location",("watch the hallway cam tonight",act(W(["ldn_hall_cam"]),ask=True)))
add(c,"lisbon_dst",("watch the backyard from 11pm to 8am",act(W([YARD],"2026-03-28T23:00","2026-03-29T08:00"))))
add(c,"lisbon",("watch the driveway tomorrow night",act(W([DRIVE],"2026-11-22T17:21","2026-11-23T07:29"))))
add(c,"lisbon",("watch the porch till quarter past 8",act(W([PORCH],NOW,"2026-11-21T20:15"))))
add(c,"lisbon",("keep an eye on the back door on Monday, 9 to 5",act(W([BACKDOOR],"2026-11-23T09:00","2026-11-23T17:00"))))

# ---------------- stop (15)
c="stop"
add(c,"lisbon_watching",("stop watching the garage but keep the driveway",act(SD("wat_garage_evening"))))
add(c,"lisbon_watching",("no need to watch the porch anymore thx",act(SD("wat_porch_tonight"))))
add(c,"lisbon_watching",("call off the drive watch",act(SD("wat_driveway_tonight"))))
add(c,"lisbon_one_watch",("you can stop the watch now, we're home",act(SD("wat_backyard_evening"))))
add(c,"lisbon_private",("stop watching the garage",act(SD("wat_garage_nightly"))))
add(c,"lisbon_private",("Cancel the porch one please",act(SD("wat_porch_evening"))))
add(c,"lisbon_watching",("stop watching the backyard",ans("not","no watch","isn't","aren't")))
add(c,"lisbon_watching",("stand down",ASK()))
add(c,"lisbon_watching",("ok turn off the garage watch, the car's back in",act(SD("wat_garage_evening"))))
add(c,"lisbon_private",("don't bother with the garage tonight",ASK()))
add(c,"ny_watching",("stop watching the garage",act(SD("wat_ny_garage"))))
add(c,"ny_watching",("you can quit watching the side gate, we fixed the latch",act(SD("wat_ny_gate"))))
add(c,"lisbon_private",("stop all the watches",act(SD("wat_garage_nightly"),SD("wat_porch_evening"))))
add(c,"lisbon_watching",("end the driveway and porch watches",act(SD("wat_driveway_tonight"),SD("wat_porch_tonight"))))
add(c,"lisbon",("stop watching the garage",ans("not","no watch","isn't","aren't","nothing")))

# ---------------- privacy (20)
c="privacy"
add(c,"lisbon",("leave the nursery alone",act(("set_boundary",{"room":"nursery"}))))
add(c,"lisbon",("please don't look in the baby's room",act(("set_boundary",{"room":"nursery"}))))
add(c,"lisbon",("mute the nursery camera",act(("mute_sensor",{"sensor_id":NURSERY}))))
add(c,"lisbon",("mute the lounge cam",act(("mute_sensor",{"sensor_id":LIVING}))))
add(c,"lisbon",("can you mute the sitting room camera, we've got guests",act(("mute_sensor",{"sensor_id":LIVING}))))
add(c,"lisbon_private",("unmute the living room camera",act(("unmute_sensor",{"sensor_id":LIVING}))))
add(c,"lisbon_private",("you can look in the nursery again",act(("clear_boundary",{"room":"nursery"}))))
add(c,"lisbon_private",("my husband says it's fine for you to watch the nursery again",act(("clear_boundary",{"room":"nursery"}),ask=True)))
add(c,"lisbon_private",("watch the nursery tonight",dec(*BOUND)))
add(c,"lisbon_private",("what's happening in the lounge right now?",dec("muted")))
add(c,"new_york",("don't watch the kids' room",act(("set_boundary",{"room":"kids room"}))))
add(c,"lisbon",("mute the garden camera",act(("mute_sensor",{"sensor_id":YARD}))))
add(c,"lisbon",("mute the drive cam for a bit",act(("mute_sensor",{"sensor_id":DRIVE}))))
add(c,"lisbon",("mute the front door camera",act(("mute_sensor",{"sensor_id":PORCH}))))
add(c,"lisbon",("leave the kitchen alone from now on",act(("set_boundary",{"room":"kitchen"}))))
add(c,"lisbon_private",("lift the boundary on the nursery",act(("clear_boundary",{"room":"nursery"}))))
add(c,"lisbon_private",("maybe you could peek at the nursery sometimes?",ASK()))
add(c,"lisbon",("turn the nursery camera back on",ans("already","not muted","isn't muted","wasn't muted","active")))
add(c,"lisbon",("leave the bedroom alone",ASK()))
add(c,"lisbon_private",("keep an eye on the living room tonight",dec("muted")))

# ---------------- multi (15)
c="multi"
ALL_BUT_NURSERY=[PORCH,DRIVE,BACKDOOR,GARAGE,YARD,LIVING]
add(c,"lisbon",("leave the nursery alone but watch everything else tonight",act(("set_boundary",{"room":"nursery"}),W(ALL_BUT_NURSERY,*T))))
add(c,"lisbon",("mute the living room cam and watch the porch tonight",act(("mute_sensor",{"sensor_id":LIVING}),W([PORCH],*T))))
add(c,"lisbon",("watch all the cameras tonight except the nursery one",act(W([PORCH,DRIVE,YARD,LIVING],*T))))
add(c,"lisbon_watching",("stop watching the garage and start watching the backyard till midnight",act(SD("wat_garage_evening"),W([YARD],"2026-11-21T19:10","2026-11-22T00:00"))))
add(c,"lisbon_private",("unmute the lounge camera and keep an eye on it tonight",act(("unmute_sensor",{"sensor_id":LIVING}),W([LIVING],*T))))
add(c,"new_york",("don't look in the kids room, but do watch the garage and basement tonight",act(("set_boundary",{"room":"kids room"}),W(["ny_garage_cam","ny_basement"],*NYT))))
add(c,"lisbon",("watch the driveway tonight and mute the garage sensor",act(W([DRIVE],*T),("mute_sensor",{"sensor_id":GARAGE}))))
add(c,"lisbon",("watch the porch tonight, and what does the backyard look like right now?",act(W([PORCH],*T))))
add(c,"lisbon",("rename the living room to lounge, then mute its camera",act(("set_household",{"rename_room":{"from":"living room","to":"lounge"}}),("mute_sensor",{"sensor_id":LIVING}))))
add(c,"lisbon",("watch everything except the nursery and the living room tonight",act(W([PORCH,DRIVE,BACKDOOR,GARAGE,YARD],*T))))
add(c,"lisbon_watching",("leave the nursery alone and stop watching the porch",act(("set_boundary",{"room":"nursery"}),SD("wat_porch_tonight"))))
add(c,"lisbon",("watch the front porch from 6 to 10 and the driveway overnight",act(W([PORCH],"2026-11-21T18:00","2026-11-21T22:00"),W([DRIVE],*T))))
add(c,"lisbon",("mute the nursery cam, it's bath time. oh and is anyone on the porch?",act(("mute_sensor",{"sensor_id":NURSERY}))))
add(c,"london_no_location",("watch the balcony till 8pm, and leave the hallway alone",act(W(["ldn_balcony_cam"],"2026-11-21T10:00","2026-11-21T20:00"),("set_boundary",{"room":"hallway"}))))
add(c,"lisbon_private",("watch the living room and the kitchen tonight",act(W([BACKDOOR],*T))))

# ---------------- followup (20)
c="followup"
add(c,"lisbon",("watch the porch tonight",act(W([PORCH],*T))),("actually only till 6 in the morning",act(U("wat_1",ends_at="2026-11-22T06:00"))))
add(c,"lisbon",("watch the driveway tonight",act(W([DRIVE],*T))),("can it start at 9pm instead?",act(U("wat_1",starts_at="2026-11-21T21:00"))))
add(c,"lisbon",("watch the porch and the driveway tonight",act(W([PORCH,DRIVE],*T))),("drop the driveway",act(U("wat_1",sensor_ids=[PORCH]))))
add(c,"lisbon",("keep an eye on the porch tonight",act(W([PORCH],*T))),("same for the back door",act(W([BACKDOOR],*T))))
add(c,"lisbon",("watch the garage tonight",act(W([GARAGE],*T))),("when does it start?",ans("17:21","5:21","sunset")))
add(c,"lisbon",("watch the backyard from 10pm to 6am",act(W([YARD],"2026-11-21T22:00","2026-11-22T06:00"))),("actually cancel that",act(SD("wat_1"))))
add(c,"lisbon_watching",("what are you watching?",ans("porch","driveway","garage")),("stop that porch one",act(SD("wat_porch_tonight"))))
add(c,"lisbon",("watch the door tonight",ASK()),("the back one",act(W([BACKDOOR],*T))))
add(c,"lisbon",("watch the shed tonight",ASK()),("sorry, I meant the garage",act(W([GARAGE],*T))))
add(c,"lisbon",("watch the driveway tonight",act(W([DRIVE],*T))),("only cars please",act(U("wat_1",conditions=["vehicle"]))))
add(c,"lisbon",("watch the porch from 8pm to midnight",act(W([PORCH],"2026-11-21T20:00","2026-11-22T00:00"))),("make that every day",act(U("wat_1",recurrence="daily"))))
add(c,"lisbon",("mute the living room camera",act(("mute_sensor",{"sensor_id":LIVING}))),("actually unmute it",act(("unmute_sensor",{"sensor_id":LIVING}))))
add(c,"lisbon",("watch the porch tonight",act(W([PORCH],*T))),("add the driveway too",act(U("wat_1",sensor_ids=[PORCH,DRIVE]))))
add(c,"lisbon",("watch the backyard tonight",act(W([YARD],*T))),("thanks! is there anything out there now?",ans()),("ok stop it at 11 then",act(U("wat_1",ends_at="2026-11-21T23:00"))))
add(c,"new_york",("watch the garage tonight",act(W(["ny_garage_cam"],*NYT))),("actually till 3",act(U("wat_1",ends_at="2026-07-05T03:00"))))
add(c,"lisbon",("leave the nursery alone",act(("set_boundary",{"room":"nursery"}))),("watch it tonight",dec(*BOUND)))
add(c,"lisbon_private",("what are you watching?",ans("garage","porch")),("push the porch one to 11:30",act(U("wat_porch_evening",ends_at="2026-11-21T23:30"))))
add(c,"lisbon",("watch the driveway tonight",act(W([DRIVE],*T))),("how long will that run for?",ans("07:28","7:28","sunrise","morning")),("ok cut it off at 1am",act(U("wat_1",ends_at="2026-11-22T01:00"))))
add(c,"lisbon",("watch the back door tonight",act(W([BACKDOOR],*T))),("never mind, cancel it",act(SD("wat_1"))))
add(c,"lisbon",("watch the garage from 9pm to 5am",act(W([GARAGE],"2026-11-21T21:00","2026-11-22T05:00"))),("no wait, make it 10pm",act(U("wat_1",starts_at="2026-11-21T22:00"))))

# ---------------- question (20)
c="question"
add(c,"lisbon_private",("is the living room camera muted?",ans("yes","muted")))
add(c,"lisbon",("is the back door open?",ans()))
add(c,"lisbon_private",("what are you watching?",ans("garage","porch")))
add(c,"lisbon",("what are you watching right now",ans("nothing","no watch","not watching","none","aren't","no active")))
add(c,"lisbon",("who's been in the backyard in the last hour?",ans()))
add(c,"lisbon",("did anyone come by while I was at work?",ans()))
add(c,"lisbon",("what's been going on?",ans()))
add(c,"lisbon_private",("when does the porch watch end?",ans("23:00","11")))
add(c,"lisbon_private",("is the garage being watched tonight?",ans("yes","garage")))
add(c,"lisbon",("which cameras have I got?",ans("porch","driveway","backyard")))
add(c,"lisbon_private",("which rooms are off limits?",ans("nursery")))
add(c,"lisbon",("any alerts today?",ans()))
add(c,"lisbon",("can you see the driveway right now? anything there?",ans()))
add(c,"lisbon",("was the back door opened last night?",ans()))
add(c,"lisbon_watching",("how many watches are running?",ans("3","three")))
add(c,"new_york",("is the kids room camera on?",ans()))
add(c,"new_york",("what does the garage look like right now",ans()))
add(c,"lisbon",("did a car pull into the drive today?",ans()))
add(c,"lisbon_private",("are you recording the nursery?",ans("no","not","alone")))
add(c,"ny_watching",("is the side gate being watched?",ans("yes","gate")))

# ---------------- typo (10)
c="typo"
add(c,"lisbon",("wach the garaje tonite",act(W([GARAGE],*T))))
add(c,"lisbon",("keep an eye on teh drivway til 11",act(W([DRIVE],NOW,"2026-11-21T23:00"))))
add(c,"lisbon",("pls watch bakyard 2nite",act(W([YARD],*T))))
add(c,"lisbon",("mute nursry cam",act(("mute_sensor",{"sensor_id":NURSERY}))))
add(c,"lisbon_watching",("stop watchin the garge",act(SD("wat_garage_evening"))))
add(c,"lisbon",("whats goin on at the frnt porch",ans()))
add(c,"lisbon",("leave the nursary alone thx",act(("set_boundary",{"room":"nursery"}))))
add(c,"lisbon",("can u watch the porch frm 10pm-6am",act(W([PORCH],"2026-11-21T22:00","2026-11-22T06:00"))))
add(c,"lisbon",("WATCH THE GARAGE TONIGHT!!!",act(W([GARAGE],*T))))
add(c,"new_york",("is teh side gaet open",ans()))

# ---------------- bad_input (10)
c="bad_input"
long_txt=("Terms and Conditions. By using this service you agree that the provider may update these terms from time to time. "
          "Section 4.2: liability is limited to the amount paid in the preceding twelve months. ")
long_txt=(long_txt*20)[:3000]
add(c,"lisbon",("",dec()))
add(c,"lisbon",(long_txt,dec()))
add(c,"lisbon",("vigia a garagem esta noite, por favor",dec()))
add(c,"lisbon",("vigila el garaje esta noche por favor",dec()))
add(c,"lisbon",("surveille le jardin cette nuit s'il te plaît",dec()))
add(c,"lisbon",("👀🏠🌙",dec()))
add(c,"lisbon",("2026-11-21T16:58:03.112Z WARN [rtsp] sen_driveway_cam reconnect attempt 3 failed: ETIMEDOUT 10.0.0.14:554",dec()))
add(c,"lisbon",("watch the garage yesterday",ASK()))
add(c,"lisbon",("asdfjkl;",dec()))
add(c,"lisbon",("   \n\t  ",dec()))

# ---------------- ambiguous (10)
c="ambiguous"
add(c,"lisbon",("watch the door tonight",ASK()))
add(c,"lisbon",("watch it",ASK()))
add(c,"lisbon",("watch the shed tonight",ASK()))
add(c,"lisbon",("keep an eye on things",ASK()))
add(c,"lisbon",("watch the camera tonight",ASK()))
add(c,"lisbon_watching",("stop it",ASK()))
add(c,"lisbon",("turn off the camera",ASK()))
add(c,"lisbon",("mute it",ASK()))
add(c,"lisbon",("leave that room alone",ASK()))
add(c,"new_york",("watch the attic while we're away",ASK()))

doc={"description":"Blind held-out household (Surface A) cases. Times are local wall clock in the context's zone. Sunset/sunrise/dusk/dawn from suncalc, rounded to nearest minute (Lisbon 2026-11-21: sunset 17:21, dusk 17:50; 2026-11-22: sunrise 07:28, dawn 06:59; NY 2026-07-05 sunrise 05:32; Lisbon DST 2026-03-28 sunset 18:57, 2026-03-29 sunrise 07:28). Extra contexts in household-contexts.json.","cases":cases}
json.dump(doc,open("/work/blind/household.json","w"),ensure_ascii=False,indent=1)
from collections import Counter
print(len(cases),Counter(x["category"] for x in cases))
